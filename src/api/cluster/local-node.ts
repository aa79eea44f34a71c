// This node's facts, read where its own RPCs read them: the services supervisor (ServiceList), etcd
// (EtcdMemberList), /proc/meminfo (Memory) and the COSI state (volumes, machine status, addresses).
import { VolumeStatus, type VolumeStatusSpec } from '../../../resources/block/volume-status.js';
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  type BootstrapManifestsConfigSpec,
} from '../../../resources/k8s/bootstrap-manifests-config.js';
import {
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NodeAddress,
  type NodeAddressSpec,
  nodeIPs,
} from '../../../resources/network/index.js';
import {
  MACHINE_STATUS_ID,
  MachineStatus,
  type MachineStatusSpec,
} from '../../../resources/runtime/machine-status.js';
import type { Pointer } from '../../cosi/resource/kind.js';
import type { TypedResource } from '../../cosi/resource/typed.js';
import type { CoreState } from '../../cosi/state/core.js';
import { isNotFound } from '../../cosi/state/errors.js';
import type { ProcfsOptions } from '../../sys/procfs/readers.js';
import { readMeminfo } from '../../sys/procfs/readers.js';
import type { EtcdHost, ServiceHost } from '../machine-stateful/deps.js';
import { listEtcdMembers } from '../machine-stateful/etcd.js';
import { isLoopback } from '../routing/self-target.js';
import { EPHEMERAL_VOLUME_ID, type NodeFacts, STATIC_POD_STATUSES } from './node-facts.js';

/** StateReader is the node's COSI state as the checks read it. */
export type StateReader = Pick<CoreState, 'get' | 'list'>;

export interface LocalNodeDeps {
  readonly services: Pick<ServiceHost, 'list'>;
  readonly etcd: EtcdHost;
  readonly state: StateReader;
  /** a container node shares its host's memory and disks: upstream leaves such nodes out of the size checks */
  readonly container: boolean;
  readonly procfs?: ProcfsOptions;
}

const specOf = async <S>(state: StateReader, ptr: Pointer, signal: AbortSignal): Promise<S> =>
  ((await state.get(ptr, { signal })) as TypedResource<S>).spec;

export function localNode(node: string, deps: LocalNodeDeps): NodeFacts {
  const { state } = deps;
  return {
    node,
    async service(id) {
      const s = deps.services.list().find((x) => x.id === id);
      return s && { events: s.events, healthy: s.health.healthy };
    },
    async etcdMembers() {
      const members = await listEtcdMembers(deps.etcd, 'cluster');
      return members.map((m) => ({
        id: m.id,
        hostname: m.name,
        peerURLs: m.peerURLs,
        isLearner: m.isLearner,
      }));
    },
    async platform() {
      return { container: deps.container };
    },
    async memTotalKiB() {
      const total = (await readMeminfo(deps.procfs)).get('MemTotal');
      if (total === undefined) throw new Error('/proc/meminfo has no MemTotal');
      return total;
    },
    async ephemeral(signal) {
      const s = await specOf<VolumeStatusSpec>(state, VolumeStatus.pointer(EPHEMERAL_VOLUME_ID), signal);
      return { location: s.location, size: s.size };
    },
    // Keel publishes no Diagnostics resources yet (upstream's runtime.Diagnostic): there is nothing to
    // report, and the check passes as it does on a Talos node without warnings
    async diagnostics() {
      return [];
    },
    async machineStage(signal) {
      try {
        return (await specOf<MachineStatusSpec>(state, MachineStatus.pointer(MACHINE_STATUS_ID), signal))
          .stage;
      } catch (e) {
        if (isNotFound(e)) return 'unknown';
        throw e;
      }
    },
    async staticPods(signal) {
      return (await state.list(STATIC_POD_STATUSES, { signal })).map((r) => r.metadata.id);
    },
  };
}

/**
 * localAddresses tells whether a node of the request is this one: a loopback address, or one of the
 * addresses the node has ever had (NodeAddress `accumulative`).
 */
export async function localAddresses(
  state: StateReader,
  signal: AbortSignal,
): Promise<(node: string) => boolean> {
  let ips: string[] = [];
  try {
    ips = nodeIPs(
      await specOf<NodeAddressSpec>(state, NodeAddress.pointer(NODE_ADDRESS_ACCUMULATIVE_ID), signal),
    );
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  const own = new Set(ips);
  return (node) => isLoopback(node) || own.has(node);
}

/** cniName is the CNI this node's bootstrap manifests install (`none`: the user brings one). */
export async function cniName(state: StateReader, signal: AbortSignal): Promise<string> {
  const ptr = BootstrapManifestsConfig.pointer(BOOTSTRAP_MANIFESTS_CONFIG_ID);
  return (await specOf<BootstrapManifestsConfigSpec>(state, ptr, signal)).cniName;
}
