// The controllers a node runs, loaded on demand: their modules are evaluated only when the controllers
// start (once the maintenance API listens, or before a stored config is activated). Evaluated with the
// rest of machined, they cost about 0.1 s of every boot under TCG before the API could listen.

import type { ContainerdPaths } from '../../../controllers/cri/containerd.js';
import type { EtcdServicePaths } from '../../../controllers/etcd/service.js';
import type { KubeletPaths } from '../../../controllers/k8s/kubelet-paths.js';
import type { StaticPodDirs } from '../../../controllers/k8s/static-pod-paths.js';
import type { ServiceSpecHost } from '../../../controllers/v1alpha1/service-spec.js';
import type { Controller } from '../../cosi/controller/index.js';
import type { EventBus } from '../events/index.js';
import type { NetworkWiring } from './network-controllers.js';

export interface ControllerOptions {
  /** PID 1's network and time controllers; absent in container mode, which keeps the host's network */
  readonly network?: NetworkWiring;
  /**
   * PID 1's block discovery controllers; by default with the network wiring, which only PID 1 is given:
   * a container node must never probe its host's disks
   */
  readonly block?: boolean;
  /** the supervisor, for the services ServiceSpecs ask for; without it no spec is carried out */
  readonly services?: ServiceSpecHost;
  /** where etcd's binaries, data and certificates live; without them a control plane runs no etcd */
  readonly etcd?: EtcdServicePaths;
  /** where containerd keeps its state and socket */
  readonly containerd?: ContainerdPaths;
  /** where the kubelet's files are; default a node's */
  readonly kubelet?: KubeletPaths;
  /** where the control plane's secrets, configs and audit log are; default a node's */
  readonly staticPods?: StaticPodDirs;
  /** a container node: it shares its host's kernel */
  readonly container?: boolean;
  /** the port a worker asks trustd on at its control planes; default upstream's 50001 */
  readonly trustdPort?: number;
}

/** loadControllers evaluates the controllers' modules (once) and makes the controllers a node registers. */
export async function loadControllers(events: EventBus, opts: ControllerOptions = {}): Promise<Controller[]> {
  const withBlock = opts.block ?? opts.network !== undefined;
  const [
    { CONFIG_CONTROLLERS },
    { secretsControllers },
    { serviceController },
    { serviceSpecController },
    { machineStatusController },
    { k8sControllers },
    kernelParams,
    etcd,
    cri,
    network,
    block,
  ] = await Promise.all([
    import('../../../controllers/config/index.js'),
    import('../../../controllers/secrets/index.js'),
    import('../../../controllers/v1alpha1/service.js'),
    import('../../../controllers/v1alpha1/service-spec.js'),
    import('../../../controllers/runtime/machine-status.js'),
    import('../../../controllers/k8s/index.js'),
    // a container node shares its host's kernel: it sets no kernel parameters
    opts.container ? undefined : import('../../../controllers/runtime/index.js'),
    opts.etcd ? import('../../../controllers/etcd/index.js') : undefined,
    opts.containerd ? import('../../../controllers/cri/index.js') : undefined,
    opts.network ? import('./network-controllers.js') : undefined,
    withBlock ? import('./block-controllers.js') : undefined,
  ]);
  // the network first: a node is reachable only once it has its address, and registration takes a
  // turn per controller; then the machine's status, which clients read from the first moment
  return [
    ...(network && opts.network ? await network.networkControllers(opts.network) : []),
    machineStatusController({ events, hostChecks: opts.network !== undefined }),
    ...(block ? await block.blockControllers() : []),
    ...(kernelParams ? kernelParams.kernelParamControllers() : []),
    ...CONFIG_CONTROLLERS,
    ...secretsControllers(opts.trustdPort !== undefined ? { trustdPort: opts.trustdPort } : {}),
    serviceController(events),
    ...(etcd && opts.etcd ? etcd.etcdControllers(opts.etcd) : []),
    ...(cri && opts.containerd ? cri.criControllers(opts.containerd) : []),
    ...k8sControllers({
      container: opts.container === true,
      ...(opts.kubelet ? { kubelet: opts.kubelet } : {}),
      ...(opts.staticPods ? { staticPods: opts.staticPods } : {}),
      waitForHost: opts.network !== undefined,
    }),
    ...(opts.services ? [serviceSpecController(opts.services)] : []),
  ];
}
