// k8s.KubeletSpecController: KubeletSpec `kubelet` — the kubelet's final arguments and KubeletConfiguration
// from its config, the machine's role, its node name and node IPs, as upstream's: Keel's flags first, the
// user's extra arguments over them (never over the kubeconfigs, the config, the cert dir or the runtime),
// --node-ip from NodeIP unless the user gives one, and none of the name once the user overrides it. A
// config the kubelet cannot take keeps the last good spec and says why.
import { isControlPlane, MACHINE_TYPE_ID, MachineType } from '../../resources/config/machine-type.js';
import {
  KUBELET_ID,
  KubeletConfig,
  type KubeletConfigSpec,
  KubeletSpec,
  type KubeletSpecSpec,
  NODENAME_ID,
  NodeIP,
  Nodename,
} from '../../resources/k8s/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { type Args, argList, mergeArgs } from './internal/args.js';
import { K8sConfigError } from './internal/errors.js';
import { kubeletConfiguration } from './internal/kubelet-configuration.js';
import { type KubeletPaths, kubeletFiles, NODE_KUBELET_PATHS } from './kubelet-paths.js';

export const KUBELET_SPEC_CONTROLLER = 'k8s.KubeletSpecController';
export const KUBELET_CREDENTIAL_PROVIDER_BIN_DIR = '/usr/local/lib/kubelet/credentialproviders';

/** the flags the user's extra arguments may not set */
const DENIED = {
  'bootstrap-kubeconfig': 'denied',
  kubeconfig: 'denied',
  'container-runtime': 'denied',
  'container-runtime-endpoint': 'denied',
  config: 'denied',
  'cert-dir': 'denied',
} as const;

export interface KubeletSpecInputs {
  readonly config: KubeletConfigSpec;
  readonly controlPlane: boolean;
  readonly nodename: string;
  /** undefined until NodeIP exists; not needed when the user gives --node-ip */
  readonly nodeIPs?: readonly string[];
  readonly container: boolean;
  /** where the kubelet's files are; default a node's */
  readonly paths?: KubeletPaths;
}

/** kubeletSpecOf is undefined while it waits for the node IPs; a K8sConfigError names what is refused. */
export function kubeletSpecOf(i: KubeletSpecInputs): KubeletSpecSpec | undefined {
  const cfg = i.config;
  const paths = i.paths ?? NODE_KUBELET_PATHS;
  const files = kubeletFiles(paths);
  const args: Args = new Map([
    ['config', [files.config]],
    ['cert-dir', [files.pkiDir]],
    ['hostname-override', [i.nodename]],
  ]);
  // the kubelet's own default is a node's: named only where it differs (a container node)
  if (paths.rootDir !== NODE_KUBELET_PATHS.rootDir) args.set('root-dir', [paths.rootDir]);
  if (!cfg.skipNodeRegistration) {
    args.set('bootstrap-kubeconfig', [files.bootstrapKubeconfig]);
    args.set('kubeconfig', [files.kubeconfig]);
  }
  // the node is tainted for an external cloud controller manager only with the flag
  if (cfg.cloudProviderExternal) args.set('cloud-provider', ['external']);
  const extra = new Map(Object.entries(cfg.extraArgs ?? {}).map(([k, v]) => [k, v.values] as const));
  if (!extra.has('node-ip')) {
    if (!i.nodeIPs) return undefined;
    args.set('node-ip', [i.nodeIPs.join(',')]);
  }
  const merged = mergeArgs(args, extra, DENIED);
  if (cfg.credentialProviderConfig) {
    merged.set('image-credential-provider-bin-dir', [KUBELET_CREDENTIAL_PROVIDER_BIN_DIR]);
    merged.set('image-credential-provider-config', [files.credentialProviderConfig]);
  }
  return {
    image: cfg.image,
    args: argList(merged),
    ...(cfg.extraMounts?.length ? { extraMounts: structuredClone(cfg.extraMounts) } : {}),
    expectedNodename: extra.has('hostname-override') ? '' : i.nodename,
    config: kubeletConfiguration(cfg, { controlPlane: i.controlPlane, container: i.container, paths }),
    ...(cfg.credentialProviderConfig
      ? { credentialProviderConfig: structuredClone(cfg.credentialProviderConfig) }
      : {}),
  };
}

export interface KubeletSpecControllerOptions {
  /** a container node: the kubelet does not insist on the kernel's parameters */
  readonly container?: boolean;
  /** where the kubelet's files are; default a node's */
  readonly paths?: KubeletPaths;
}

export function kubeletSpecController(opts: KubeletSpecControllerOptions = {}) {
  return defineController({
    name: KUBELET_SPEC_CONTROLLER,
    inputs: [
      input(KubeletConfig, { id: KUBELET_ID }),
      input(MachineType, { id: MACHINE_TYPE_ID }),
      input(Nodename, { id: NODENAME_ID }),
      input(NodeIP, { id: KUBELET_ID }),
    ],
    outputs: [output(KubeletSpec, 'exclusive')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        const cfg = await rt.getOrNull(KubeletConfig, KUBELET_ID, { signal });
        const type = await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal });
        const name = await rt.getOrNull(Nodename, NODENAME_ID, { signal });
        const ip = await rt.getOrNull(NodeIP, KUBELET_ID, { signal });
        if (!cfg || !type || !name) continue;
        let next: KubeletSpecSpec | undefined;
        try {
          next = kubeletSpecOf({
            config: cfg.spec,
            controlPlane: isControlPlane(type.spec.type),
            nodename: name.spec.nodename,
            ...(ip ? { nodeIPs: ip.spec.addresses } : {}),
            container: opts.container === true,
            ...(opts.paths ? { paths: opts.paths } : {}),
          });
        } catch (e) {
          if (!(e instanceof K8sConfigError)) throw e;
          logger.error('kubelet spec refused', { error: e.message });
          continue;
        }
        if (!next) continue;
        const spec = next;
        await rt.modify(KubeletSpec, KUBELET_ID, () => spec, { signal });
        rt.resetBackoff();
      }
    },
  });
}
