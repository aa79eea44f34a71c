// AdmissionControlConfigs.kubernetes.talos.dev (`admission-control`, controlplane): the API server's
// admission plugins' configurations from the machine config. YAML only, upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const ADMISSION_CONTROL_CONFIG_ID = 'admission-control';

/** AdmissionPluginSpec is one plugin's name and its configuration, as the config has it. */
export interface AdmissionPluginSpec {
  name: string;
  configuration: Record<string, unknown>;
}

export interface AdmissionControlConfigSpec {
  config: AdmissionPluginSpec[];
}

export const AdmissionControlConfig = defineResource<AdmissionControlConfigSpec>({
  type: 'AdmissionControlConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: () => ({ config: [] }),
  copy: (s) => structuredClone(s),
  fromYAML: (v) => ({ config: [], ...((v ?? {}) as Partial<AdmissionControlConfigSpec>) }),
});
export type AdmissionControlConfig = ResourceOf<typeof AdmissionControlConfig>;
