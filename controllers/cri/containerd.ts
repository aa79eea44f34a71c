// cri.ContainerdServiceController: the ServiceSpec `containerd` — containerd from the components layer,
// with its own config: state on EPHEMERAL (/var/lib/containerd), its socket under /run/containerd, the
// CRI plugin's CNI plugins from the layer. One instance serves both namespaces: `system` for the node's
// own containers and `k8s.io` for Kubernetes' (CRI). It runs on every configured node.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer } from '../../resources/runtime/index.js';
import { ServiceSpec, type ServiceSpecSpec } from '../../resources/v1alpha1/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';

export const CONTAINERD_SERVICE_CONTROLLER = 'cri.ContainerdServiceController';
export const CONTAINERD_SERVICE_ID = 'containerd';
/** the namespace of the node's own containers, and Kubernetes' */
export const SYSTEM_NAMESPACE = 'system';
export const CRI_NAMESPACE = 'k8s.io';

export interface ContainerdPaths {
  /** /var/lib/containerd on a node */
  readonly root: string;
  /** /run/containerd on a node */
  readonly state: string;
  /** where its config is written: /etc/containerd on a node is read-only, so under state */
  readonly config: string;
  /** /etc/cni/net.d: the CNI network configs (the network plugin's, with Kubernetes) */
  readonly cniConf: string;
  /** a container node (container mode): it shares its host's kernel, which changes the CRI's config */
  readonly containerMode?: boolean;
}

export const containerdSocket = (p: ContainerdPaths): string => `${p.state}/containerd.sock`;

export function containerdServiceController(paths: ContainerdPaths) {
  return defineController({
    name: CONTAINERD_SERVICE_CONTROLLER,
    inputs: [
      input(MachineConfig, { id: MACHINE_CONFIG_ID }),
      input(ComponentsLayer, { id: COMPONENTS_LAYER_ID }),
    ],
    outputs: [output(ServiceSpec, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
        const layer = await rt.getOrNull(ComponentsLayer, COMPONENTS_LAYER_ID, { signal });
        if (cfg && layer) {
          const next = containerdServiceSpec(layer.spec.root, paths);
          await rt.modify(ServiceSpec, CONTAINERD_SERVICE_ID, () => next, { signal });
        } else await destroyIfPresent(rt, ServiceSpec.pointer(CONTAINERD_SERVICE_ID), { signal });
        rt.resetBackoff();
      }
    },
  });
}

/**
 * containerdConfig is containerd's config.toml (version 3, for containerd 2.x). A container node shares
 * its host's kernel and cannot lower an OOM score below its own, so the CRI there raises each score it
 * sets (a pod sandbox's -998) to containerd's own rather than fail the pod; a node leaves it unset, as
 * upstream.
 */
export function containerdConfig(layerRoot: string, p: ContainerdPaths): string {
  return [
    'version = 3',
    `root = ${JSON.stringify(p.root)}`,
    `state = ${JSON.stringify(p.state)}`,
    '',
    '[grpc]',
    `  address = ${JSON.stringify(containerdSocket(p))}`,
    '',
    ...(p.containerMode
      ? ["[plugins.'io.containerd.cri.v1.runtime']", '  restrict_oom_score_adj = true', '']
      : []),
    "[plugins.'io.containerd.cri.v1.runtime'.cni]",
    `  bin_dirs = [${JSON.stringify(`${layerRoot}/opt/cni/bin`)}]`,
    `  conf_dir = ${JSON.stringify(p.cniConf)}`,
    '',
  ].join('\n');
}

/** containerdServiceSpec runs containerd with that config; its shim and runc are found on PATH. */
export function containerdServiceSpec(layerRoot: string, p: ContainerdPaths): ServiceSpecSpec {
  const config = `${p.config}/config.toml`;
  return {
    kind: 'process',
    args: [`${layerRoot}/usr/bin/containerd`, '--config', config],
    env: { PATH: `${layerRoot}/usr/bin:/usr/bin:/usr/sbin:/bin:/sbin` },
    uid: 0,
    gid: 0,
    dependsOn: [],
    files: [{ path: config, mode: 0o644, content: containerdConfig(layerRoot, p) }],
    health: { kind: 'unix', path: containerdSocket(p) },
    apiControl: true,
    cgroup: '',
    options: {},
  };
}
