// The files the kubelet reads, rendered as upstream's KubeletServiceController renders them: YAML with its
// keys sorted and lists not indented (Kubernetes' serializer goes through JSON to sigs.k8s.io/yaml).
import { stringify } from 'yaml';

/** k8sYAML writes a document as Kubernetes' serializer lays it out. */
export const k8sYAML = (doc: unknown): string =>
  stringify(doc, { sortMapEntries: true, indentSeq: false, lineWidth: 0 });

export interface BootstrapKubeconfigInputs {
  /** the API server the kubelet bootstraps against */
  readonly server: string;
  /** the accepted CAs, PEM, concatenated */
  readonly caBundle: string;
  readonly tokenID: string;
  readonly tokenSecret: string;
}

/**
 * bootstrapKubeconfig authenticates with the bootstrap token `<id>.<secret>`: the kubelet trades it for a
 * client certificate (TLS bootstrap) and writes its own kubeconfig. Cluster `local`, user and context
 * `kubelet@local`, as upstream's.
 */
export function bootstrapKubeconfig(i: BootstrapKubeconfigInputs): string {
  return k8sYAML({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'local',
        cluster: {
          server: i.server,
          'certificate-authority-data': Buffer.from(i.caBundle).toString('base64'),
        },
      },
    ],
    users: [{ name: 'kubelet@local', user: { token: `${i.tokenID}.${i.tokenSecret}` } }],
    contexts: [{ name: 'kubelet@local', context: { cluster: 'local', user: 'kubelet@local' } }],
    'current-context': 'kubelet@local',
    preferences: {},
  });
}
