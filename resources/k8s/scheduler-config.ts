// SchedulerConfigs.kubernetes.talos.dev (`kube-scheduler`, controlplane): what the machine config says of
// the scheduler — the input of its static pod. YAML only, upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import type { ArgValues, ExtraVolume, Resources } from './component.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const SCHEDULER_ID = 'kube-scheduler';

export interface SchedulerConfigSpec {
  enabled: boolean;
  image: string;
  extraArgs: Record<string, ArgValues>;
  extraVolumes: ExtraVolume[];
  environmentVariables: Record<string, string>;
  resources: Resources;
  /** the user's KubeSchedulerConfiguration, merged into Keel's */
  config: Record<string, unknown>;
}

const schedulerConfigZero = (): SchedulerConfigSpec => ({
  enabled: false,
  image: '',
  extraArgs: {},
  extraVolumes: [],
  environmentVariables: {},
  resources: { requests: {} },
  config: {},
});

export const SchedulerConfig = defineResource<SchedulerConfigSpec>({
  type: 'SchedulerConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: schedulerConfigZero,
  copy: (s) => structuredClone(s),
  fromYAML: (v) => ({ ...schedulerConfigZero(), ...((v ?? {}) as object) }),
});
export type SchedulerConfig = ResourceOf<typeof SchedulerConfig>;
