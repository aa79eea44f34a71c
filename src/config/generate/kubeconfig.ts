// A single-cluster kubeconfig with embedded CA and client credentials, laid out as client-go's
// clientcmd.Write lays it out (sorted keys, two-space indent), so kubectl and talosctl's merge read it as theirs.
import { stringify } from 'yaml';

export interface KubeconfigInput {
  readonly cluster: string;
  /** the API server URL */
  readonly server: string;
  /** PEM of every CA the client trusts for the server, concatenated */
  readonly caPEM: string;
  /** the user entry's name */
  readonly user: string;
  readonly context: string;
  /** PEM of the client certificate and its key */
  readonly client: { readonly crt: string; readonly key: string };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** renderKubeconfig writes one cluster, one user and one context, the context current and in `default`. */
export function renderKubeconfig(k: KubeconfigInput): string {
  return stringify(
    {
      apiVersion: 'v1',
      clusters: [
        { cluster: { 'certificate-authority-data': b64(k.caPEM), server: k.server }, name: k.cluster },
      ],
      contexts: [{ context: { cluster: k.cluster, namespace: 'default', user: k.user }, name: k.context }],
      'current-context': k.context,
      kind: 'Config',
      preferences: {},
      users: [
        {
          name: k.user,
          user: { 'client-certificate-data': b64(k.client.crt), 'client-key-data': b64(k.client.key) },
        },
      ],
    },
    { indentSeq: false, lineWidth: 0 },
  );
}
