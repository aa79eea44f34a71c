// The slice of the Kubernetes API the bootstrap manifests use, as plain data in the shape the API server
// reads (Kubernetes' JSON field names). Only the fields upstream's templates set are here; a field left
// out is absent from the object, as upstream's unstructured conversion drops Go's empty values.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface TypeMeta<V extends string, K extends string> {
  apiVersion: V;
  kind: K;
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const RBAC_V1 = `${RBAC_GROUP}/v1` as const;

export interface Subject {
  kind: 'Group' | 'ServiceAccount';
  name: string;
  apiGroup?: string;
  namespace?: string;
}
export interface RoleRef {
  apiGroup: string;
  kind: 'ClusterRole';
  name: string;
}
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
export interface ClusterRoleBinding extends TypeMeta<typeof RBAC_V1, 'ClusterRoleBinding'> {
  metadata: ObjectMeta;
  roleRef: RoleRef;
  subjects: Subject[];
}
export interface ClusterRole extends TypeMeta<typeof RBAC_V1, 'ClusterRole'> {
  metadata: ObjectMeta;
  rules: PolicyRule[];
}

export interface Secret extends TypeMeta<'v1', 'Secret'> {
  metadata: ObjectMeta;
  type: string;
  stringData: Record<string, string>;
}
export interface ConfigMap extends TypeMeta<'v1', 'ConfigMap'> {
  metadata: ObjectMeta;
  data: Record<string, string>;
}
export interface ServiceAccount extends TypeMeta<'v1', 'ServiceAccount'> {
  metadata: ObjectMeta;
}

export type Protocol = 'TCP' | 'UDP';
export interface ServicePort {
  name: string;
  port: number;
  protocol: Protocol;
  targetPort: number;
}
export interface Service extends TypeMeta<'v1', 'Service'> {
  metadata: ObjectMeta;
  spec: {
    selector: Record<string, string>;
    clusterIP?: string;
    clusterIPs?: string[];
    ipFamilies?: ('IPv4' | 'IPv6')[];
    ipFamilyPolicy: 'SingleStack' | 'RequireDualStack';
    ports: ServicePort[];
  };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef: { fieldPath: string } };
}
export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}
export interface Volume {
  name: string;
  hostPath?: { path: string };
  configMap?: { name: string; items?: { key: string; path: string }[] };
}
export interface Probe {
  httpGet: { path: string; port: number; scheme: 'HTTP' };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}
export interface SecurityContext {
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
}
export interface Container {
  name: string;
  image: string;
  imagePullPolicy?: 'IfNotPresent';
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: { name: string; containerPort: number; protocol: Protocol }[];
  /** always present: upstream's struct has no empty form, so it shows as `{}` */
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext?: SecurityContext;
  volumeMounts?: VolumeMount[];
}
export interface Toleration {
  key?: string;
  operator: 'Exists';
  effect: 'NoSchedule' | 'NoExecute';
}
export interface PodSpec {
  affinity?: Record<string, unknown>;
  containers: Container[];
  initContainers?: Container[];
  dnsPolicy?: 'Default';
  hostNetwork?: boolean;
  nodeSelector?: Record<string, string>;
  priorityClassName: string;
  serviceAccountName: string;
  tolerations: Toleration[];
  volumes: Volume[];
}
export interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: PodSpec;
}
/** a rolling update at most one pod down at a time */
export interface RollingUpdate {
  type: 'RollingUpdate';
  rollingUpdate: { maxUnavailable: number };
}
export interface Deployment extends TypeMeta<'apps/v1', 'Deployment'> {
  metadata: ObjectMeta;
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    strategy: RollingUpdate;
    template: PodTemplate;
  };
}
export interface DaemonSet extends TypeMeta<'apps/v1', 'DaemonSet'> {
  metadata: ObjectMeta;
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: PodTemplate;
    /** always present, `{}` when the default */
    updateStrategy: RollingUpdate | Record<string, never>;
  };
}

export interface JSONSchemaProps {
  type: string;
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps;
}
export interface CustomResourceDefinition
  extends TypeMeta<'apiextensions.k8s.io/v1', 'CustomResourceDefinition'> {
  metadata: ObjectMeta;
  spec: {
    conversion: { strategy: 'None' };
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames: string[] };
    scope: 'Namespaced';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: JSONSchemaProps };
    }[];
  };
}

/** BootstrapObject is any of the objects the bootstrap manifests hold. */
export type BootstrapObject =
  | ClusterRoleBinding
  | ClusterRole
  | Secret
  | ConfigMap
  | ServiceAccount
  | Service
  | Deployment
  | DaemonSet
  | CustomResourceDefinition;
