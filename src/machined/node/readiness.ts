// Readiness at the running stage, as MachineStatus.status: upstream's checks this node can judge today
// (time, network, its services), with upstream's words for what is missing.
import type { NetworkStatusSpec } from '../../../resources/network/index.js';
import type { UnmetCondition } from '../../../resources/runtime/index.js';
import type { TimeStatusSpec } from '../../../resources/time/index.js';
import type { ServiceInfo } from '../services/index.js';

/** A service that finished or was skipped on purpose is not a reason to be unready. */
const SETTLED: ReadonlySet<string> = new Set(['Finished', 'Skipped']);

/** serviceConditions names the services that are neither up nor settled, as one unmet condition. */
export function serviceConditions(services: readonly ServiceInfo[]): UnmetCondition[] {
  const down = services.filter((s) => !s.up && !SETTLED.has(s.state)).map((s) => s.id);
  return down.length === 0 ? [] : [{ name: 'services', reason: `services not healthy: ${down.join(', ')}` }];
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
