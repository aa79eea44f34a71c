// Where the control plane's static pods find their files, as upstream's constants: inside each pod the
// directories are upstream's, and on the host they are where the node keeps them (the same paths on a
// node; under the state directory in container mode), which the pods' hostPath volumes name.
import { join } from 'node:path';

/** the pods' view: upstream's Kubebernetes{StaticSecrets,StaticConfig}Dir and KubernetesAuditLogDir */
export const POD_SECRETS_DIR = '/system/secrets/kubernetes';
export const POD_CONFIG_DIR = '/system/config/kubernetes';
export const POD_AUDIT_LOG_DIR = '/var/log/audit/kube';

/** StaticPodDirs are the host directories the control plane's files live in. */
export interface StaticPodDirs {
  /** /system/secrets/kubernetes on a node */
  readonly secretsDir: string;
  /** /system/config/kubernetes on a node */
  readonly configDir: string;
  /** /var/log/audit/kube on a node */
  readonly auditLogDir: string;
}

export const NODE_STATIC_POD_DIRS: StaticPodDirs = {
  secretsDir: POD_SECRETS_DIR,
  configDir: POD_CONFIG_DIR,
  auditLogDir: POD_AUDIT_LOG_DIR,
};

/** staticPodDirsUnder is where a node rooted at `root` keeps them (container mode: its state directory). */
export const staticPodDirsUnder = (root: string): StaticPodDirs => ({
  secretsDir: join(root, POD_SECRETS_DIR),
  configDir: join(root, POD_CONFIG_DIR),
  auditLogDir: join(root, POD_AUDIT_LOG_DIR),
});

/** The users each component runs as (upstream's Kubernetes*RunUser, the group the same number). */
export const RUN_AS = {
  'kube-apiserver': 65534,
  'kube-controller-manager': 65535,
  'kube-scheduler': 65536,
} as const;

export type ControlPlaneComponent = keyof typeof RUN_AS;

/** inPod names a component's file as its pod sees it, e.g. inPod.secrets('kube-apiserver', 'ca.crt'). */
export const inPod = {
  secrets: (c: ControlPlaneComponent, file = '') => join(POD_SECRETS_DIR, c, file).replace(/\/$/, ''),
  config: (c: ControlPlaneComponent, file = '') => join(POD_CONFIG_DIR, c, file).replace(/\/$/, ''),
};
