// KubeletSpecs.kubernetes.talos.dev (`kubelet`): the kubelet as it is to run — its final arguments, its
// KubeletConfiguration, the mounts it needs, and the node name it is expected to register under. It
// travels as YAML only, as upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import type { Mount } from './kubelet-config.js';
import { K8S_NAMESPACE } from './namespace.js';

export interface KubeletSpecSpec {
  image: string;
  args: string[];
  extraMounts?: Mount[];
  /** '' when the user overrides --hostname-override: then Keel does not know the name */
  expectedNodename: string;
  config: Record<string, unknown>;
  credentialProviderConfig?: Record<string, unknown>;
}

export const KubeletSpec = defineResource<KubeletSpecSpec>({
  type: 'KubeletSpecs.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  empty: () => ({ image: '', args: [], expectedNodename: '', config: {} }),
  copy: (s) => structuredClone(s),
  toYAML: (s) => ({
    image: s.image,
    ...(s.args.length ? { args: s.args } : {}),
    ...(s.extraMounts?.length ? { extraMounts: s.extraMounts } : {}),
    ...(s.expectedNodename ? { expectedNodename: s.expectedNodename } : {}),
    config: s.config,
    ...(s.credentialProviderConfig ? { credentialProviderConfig: s.credentialProviderConfig } : {}),
  }),
  fromYAML: (v) => {
    const o = (v ?? {}) as Partial<KubeletSpecSpec>;
    return {
      image: o.image ?? '',
      args: o.args ?? [],
      ...(o.extraMounts ? { extraMounts: o.extraMounts } : {}),
      expectedNodename: o.expectedNodename ?? '',
      config: o.config ?? {},
      ...(o.credentialProviderConfig ? { credentialProviderConfig: o.credentialProviderConfig } : {}),
    };
  },
});
export type KubeletSpec = ResourceOf<typeof KubeletSpec>;
