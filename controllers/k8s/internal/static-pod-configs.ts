// The control plane's config files, as upstream's RenderConfigsStaticPodController renders them: the API
// server's admission control, audit policy and authorization configs, and the scheduler's
// KubeSchedulerConfiguration, as YAML with sorted keys (the Kubernetes serializer's order). Pure: the
// controller writes them.
import YAML from 'yaml';
import type {
  AdmissionControlConfigSpec,
  AuditPolicyConfigSpec,
  AuthorizationConfigSpec,
  SchedulerConfigSpec,
} from '../../../resources/k8s/index.js';
import { inPod } from '../static-pod-paths.js';
import { authorizationConfigAPIVersion, versionFromImageRef } from './kube-version.js';
import type { ComponentFiles } from './static-pod-secrets.js';

export interface StaticPodConfigInputs {
  readonly admission: AdmissionControlConfigSpec;
  readonly audit: AuditPolicyConfigSpec;
  readonly authorization: AuthorizationConfigSpec;
  readonly scheduler: SchedulerConfigSpec;
}

const yaml = (v: unknown): string => YAML.stringify(v, { sortMapEntries: true });

export const admissionControlYAML = (s: AdmissionControlConfigSpec): string =>
  yaml({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AdmissionConfiguration',
    plugins: s.config.map((p) => ({ name: p.name, configuration: p.configuration })),
  });

/** the user's policy (or the default) as it is: its apiVersion and kind are part of it */
export const auditPolicyYAML = (s: AuditPolicyConfigSpec): string => yaml(s.config);

export const authorizationYAML = (s: AuthorizationConfigSpec): string =>
  yaml({
    apiVersion: authorizationConfigAPIVersion(versionFromImageRef(s.image)),
    kind: 'AuthorizationConfiguration',
    authorizers: s.config.map((a) => ({
      type: a.type,
      name: a.name,
      ...(a.webhook && Object.keys(a.webhook).length > 0 ? { webhook: a.webhook } : {}),
    })),
  });

/** the user's KubeSchedulerConfiguration with Keel's version, kind and kubeconfig over it */
export function schedulerConfigYAML(s: SchedulerConfigSpec): string {
  const clientConnection = (s.config.clientConnection ?? {}) as Record<string, unknown>;
  return yaml({
    ...s.config,
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    clientConnection: { ...clientConnection, kubeconfig: inPod.secrets('kube-scheduler', 'kubeconfig') },
  });
}

/** staticPodConfigFiles lays out the config files of the API server and the scheduler. */
export const staticPodConfigFiles = (i: StaticPodConfigInputs): ComponentFiles[] => [
  {
    component: 'kube-apiserver',
    files: new Map([
      ['admission-control-config.yaml', admissionControlYAML(i.admission)],
      ['auditpolicy.yaml', auditPolicyYAML(i.audit)],
      ['authorization-config.yaml', authorizationYAML(i.authorization)],
    ]),
  },
  {
    component: 'kube-scheduler',
    files: new Map([['scheduler-config.yaml', schedulerConfigYAML(i.scheduler)]]),
  },
];
