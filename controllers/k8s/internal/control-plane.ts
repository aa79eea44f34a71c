// What the control plane configs' transforms share, as upstream's control_plane.go: the config of a
// control-plane node with a machine and a cluster section, and its component settings in the resources'
// shapes.

import { isControlPlane } from '../../../resources/config/machine-type.js';
import type { ArgValues, ExtraVolume, Resources } from '../../../resources/k8s/index.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../src/config/generate/options.js';
import { accessors, type Config, v1alpha1Of } from '../../../src/config/index.js';
import type { ControlPlaneComponent } from '../../../src/config/types/v1alpha1/cluster.js';
import { DEFAULT_POD_CIDR, DEFAULT_SERVICE_CIDR } from '../address-filter.js';

type V1 = NonNullable<ReturnType<typeof v1alpha1Of>>;
export type ControlPlaneV1 = V1 & {
  machine: NonNullable<V1['machine']>;
  cluster: NonNullable<V1['cluster']>;
};

/** controlPlaneOf is the v1alpha1 document of a control-plane node's config, or undefined. */
export function controlPlaneOf(cfg: Config): ControlPlaneV1 | undefined {
  const v1 = v1alpha1Of(cfg);
  if (!v1?.machine || !v1.cluster) return undefined;
  return isControlPlane(accessors(cfg).machineType()) ? (v1 as ControlPlaneV1) : undefined;
}

/** imageOr is the configured image, or upstream's at the default Kubernetes version. */
export const imageOr = (image: string | undefined, repository: string): string =>
  image || `${repository}:v${DEFAULT_KUBERNETES_VERSION}`;

export const extraArgsOf = (c: ControlPlaneComponent | undefined): Record<string, ArgValues> =>
  Object.fromEntries(Object.entries(c?.extraArgs ?? {}).map(([k, v]) => [k, { values: [v] }]));

/** the volume's name, as upstream's VolumeMountConfig.Name: its mount path with / _ . made dashes */
export const volumeName = (mountPath: string): string =>
  mountPath.replace(/[/_.]/g, '-').replace(/^-+|-+$/g, '');

export const extraVolumesOf = (c: ControlPlaneComponent | undefined): ExtraVolume[] =>
  (c?.extraVolumes ?? []).map((v) => ({
    name: volumeName(v.mountPath ?? ''),
    hostPath: v.hostPath ?? '',
    mountPath: v.mountPath ?? '',
    readonly: v.readonly === true,
  }));

/** a quantity as upstream reads it from the config: a string as is, an integer in decimal, else '' */
const quantity = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isInteger(v) ? String(v) : '';

export function resourcesOf(c: ControlPlaneComponent | undefined): Resources {
  const req = c?.resources?.requests ?? {};
  const lim = c?.resources?.limits ?? {};
  const limits: Record<string, string> = {};
  if (quantity(lim.cpu)) limits.cpu = quantity(lim.cpu);
  if (quantity(lim.memory)) limits.memory = quantity(lim.memory);
  return {
    requests: { cpu: quantity(req.cpu), memory: quantity(req.memory) },
    ...(Object.keys(limits).length ? { limits } : {}),
  };
}

export const podCIDRsOf = (v1: ControlPlaneV1): string[] =>
  v1.cluster.network?.podSubnets?.length ? [...v1.cluster.network.podSubnets] : [DEFAULT_POD_CIDR];
export const serviceCIDRsOf = (v1: ControlPlaneV1): string[] =>
  v1.cluster.network?.serviceSubnets?.length
    ? [...v1.cluster.network.serviceSubnets]
    : [DEFAULT_SERVICE_CIDR];

export const CLOUD_PROVIDER_EXTERNAL = 'external';

/** the components' --cloud-provider: `external` when the cluster runs an external cloud provider */
export const cloudProviderOf = (v1: ControlPlaneV1): string =>
  v1.cluster.externalCloudProvider?.enabled ? CLOUD_PROVIDER_EXTERNAL : '';
