// What the cluster health check reads on this node, as the node wiring hands it in: the config (role,
// Kubernetes CA and endpoint), the services supervisor, etcd and the COSI state.
import type { ProcfsOptions } from '../../sys/procfs/readers.js';
import type { ConfigHost, EtcdHost, ServiceHost } from '../machine-stateful/deps.js';
import type { ClusterCheck } from './checks/default.js';
import type { StateReader } from './local-node.js';
import type { PeersFactory } from './peers.js';

export interface ClusterDeps {
  readonly config: Pick<ConfigHost, 'active' | 'validationMode'>;
  readonly services: Pick<ServiceHost, 'list'>;
  readonly etcd: EtcdHost;
  readonly state: StateReader;
  readonly procfs?: ProcfsOptions;
  /**
   * how the other nodes' APIs are called; by default through a forwarder with the node's API client
   * certificate (peers.ts), the caller's roles passed on
   */
  readonly peers?: PeersFactory;
  /** the checks, in order; upstream's by default (tests give quicker ones) */
  readonly checks?: readonly ClusterCheck[];
}
