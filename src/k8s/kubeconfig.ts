// The part of a kubeconfig a client dials with: the current context's server, the CA it trusts and the
// client certificate it presents, all embedded (`*-data`, base64) as the node's kubeconfigs carry them.
import YAML from 'yaml';
import { KubeError } from './errors.js';

export interface KubeEndpoint {
  /** `https://host:port` */
  readonly server: string;
  /** PEM */
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  /** the name the server's certificate must carry when it is not the URL's host (a kubelet's, by node name) */
  readonly servername?: string;
}

type Named = { name?: unknown } & Record<string, unknown>;

const bad = (why: string) => new KubeError('kubeconfig', `kubeconfig: ${why}`);

function named(list: unknown, name: string, what: string): Record<string, unknown> {
  const hit = (Array.isArray(list) ? (list as Named[]) : []).find((x) => x?.name === name);
  const body = hit?.[what];
  if (!body || typeof body !== 'object') throw bad(`no ${what} named ${JSON.stringify(name)}`);
  return body as Record<string, unknown>;
}

function pem(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== 'string' || v === '') throw bad(`${field} is missing (only embedded data is read)`);
  return Buffer.from(v, 'base64').toString('utf8');
}

/** parseKubeconfig reads the current context's endpoint and credentials. */
export function parseKubeconfig(text: string): KubeEndpoint {
  let doc: Record<string, unknown>;
  try {
    doc = (YAML.parse(text) ?? {}) as Record<string, unknown>;
  } catch (e) {
    throw new KubeError('kubeconfig', `kubeconfig: ${(e as Error).message}`, undefined, undefined, {
      cause: e,
    });
  }
  const current = doc['current-context'];
  if (typeof current !== 'string' || !current) throw bad('no current-context');
  const ctx = named(doc.contexts, current, 'context');
  const cluster = named(doc.clusters, String(ctx.cluster ?? ''), 'cluster');
  const user = named(doc.users, String(ctx.user ?? ''), 'user');
  if (typeof cluster.server !== 'string' || !cluster.server)
    throw bad(`cluster ${ctx.cluster} has no server`);
  return {
    server: cluster.server,
    ca: pem(cluster, 'certificate-authority-data'),
    cert: pem(user, 'client-certificate-data'),
    key: pem(user, 'client-key-data'),
  };
}
