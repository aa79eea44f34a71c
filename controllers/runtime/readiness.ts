// Readiness at the booting and running stages, as MachineStatus.status: upstream's checks this node can
// judge today (time, network, services), each an unmet condition in upstream's words. Pure.
import type { NetworkStatusSpec } from '../../resources/network/index.js';
import type { UnmetCondition } from '../../resources/runtime/index.js';
import type { TimeStatusSpec } from '../../resources/time/index.js';
import type { ServiceStateSpec } from '../../resources/v1alpha1/index.js';

/**
 * serviceCondition, as upstream's servicesCheck: every service mirrored as a resource runs and, when its
 * health is known, is healthy; every required one runs. Upstream requires apid, machined and kubelet
 * (etcd and trustd on a control plane); here the required set is machined's own plus every service a
 * ServiceSpec asks for, so a service joins readiness the moment a controller wants it.
 */
export function serviceCondition(
  services: ReadonlyMap<string, ServiceStateSpec>,
  required: readonly string[],
): UnmetCondition[] {
  const problems: string[] = [];
  for (const [id, s] of [...services].sort(([a], [b]) => a.localeCompare(b))) {
    if (!s.running) problems.push(`${id} not running`);
    else if (!s.unknown && !s.healthy) problems.push(`${id} not healthy`);
  }
  for (const id of required) if (!services.get(id)?.running) problems.push(`${id} not running`);
  return problems.length === 0 ? [] : [{ name: 'services', reason: problems.join(', ') }];
}

/** timeCondition: the clock synced (or its boot timeout passed, or sync is disabled). */
export function timeCondition(s: TimeStatusSpec | undefined): UnmetCondition[] {
  if (!s) return [{ name: 'time', reason: 'time status is not known yet' }];
  return s.synced ? [] : [{ name: 'time', reason: 'time is not synced' }];
}

/** networkCondition lists the network flags still false, in upstream's order. */
export function networkCondition(s: NetworkStatusSpec | undefined): UnmetCondition[] {
  if (!s) return [{ name: 'network', reason: 'network status is not known yet' }];
  const waiting = [
    ...(s.addressReady ? [] : ['address']),
    ...(s.connectivityReady ? [] : ['connectivity']),
    ...(s.etcFilesReady ? [] : ['etc-files']),
    ...(s.hostnameReady ? [] : ['hostname']),
  ];
  return waiting.length === 0 ? [] : [{ name: 'network', reason: `waiting on: ${waiting.join(', ')}` }];
}
