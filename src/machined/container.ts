// Container mode: machined as an ordinary process on a Linux host, with a state directory and an API
// address, no PID-1 duties and no controller that would change the host. There is no power to switch
// off: Shutdown ends the run (the process exits 0), Reboot starts a fresh node run in the same process
// with a new boot id and the config from the state directory.
import { readFileSync } from 'node:fs';
import { type NodeOptions, startNode } from './node/index.js';
import type { PowerAction } from './power-action.js';

export const DEFAULT_CONTAINER_API_ADDRESS = '127.0.0.1:50000';

export interface ContainerOptions {
  readonly stateDir: string;
  readonly apiAddress?: string;
  /** trustd's `host:port` (control plane), whose port a worker also dials; default the API's host and port + 1 */
  readonly trustdAddress?: string;
  /** path of a config file stored into an empty state directory */
  readonly configPath?: string;
  readonly console?: (line: string) => void;
  /** the tree etcd and the other components are found under (`usr/bin/etcd`) */
  readonly componentsRoot?: string;
  /** the tree the kubelet and the Kubernetes images are found under (`usr/bin/kubelet`) */
  readonly kubernetesRoot?: string;
  /** the node's hostname, instead of the host's */
  readonly hostname?: string;
}

/** runContainerNode runs node after node until one shuts down; it resolves with that action. */
export async function runContainerNode(opts: ContainerOptions): Promise<PowerAction> {
  const preloadConfig = opts.configPath ? readFileSync(opts.configPath, 'utf8') : undefined;
  const nodeOpts: NodeOptions = {
    mode: 'container',
    stateDir: opts.stateDir,
    apiAddress: opts.apiAddress ?? DEFAULT_CONTAINER_API_ADDRESS,
    ...(opts.trustdAddress ? { trustdAddress: opts.trustdAddress } : {}),
    ...(preloadConfig !== undefined ? { preloadConfig } : {}),
    ...(opts.console ? { console: opts.console } : {}),
    ...(opts.componentsRoot ? { componentsRoot: opts.componentsRoot } : {}),
    ...(opts.kubernetesRoot ? { kubernetesRoot: opts.kubernetesRoot } : {}),
    ...(opts.hostname ? { hostname: opts.hostname } : {}),
  };
  for (;;) {
    const node = await startNode(nodeOpts);
    const action = await node.done;
    if (action !== 'reboot' && action !== 'kexec') return action;
    (opts.console ?? ((l: string) => process.stdout.write(`${l}\n`)))(
      `[machined] reboot: starting a new node run (previous boot id ${node.bootId})`,
    );
  }
}
