// The local kubelet's own API, as upstream's pkg/kubernetes/kubelet reads it: the pods it runs (GET /pods/
// on port 10250), asked with the API server's kubelet client certificate. The kubelet's serving
// certificate is trusted by the cluster CA or, when the kubelet made itself a self-signed one (no
// serverTLSBootstrap), by that certificate as read from its pki directory; either carries the node name.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubeClient } from './client.js';
import { KubeError } from './errors.js';
import type { KubeEndpoint } from './kubeconfig.js';

/** upstream's constants.KubeletPort, on loopback: only the local kubelet is asked */
export const LOCAL_KUBELET_URL = 'https://127.0.0.1:10250';
/** the self-signed certificate the kubelet writes to its --cert-dir */
export const KUBELET_SERVING_CERT = 'kubelet.crt';

/** KubeletPod is the part of a v1 Pod the kubelet's list is read for. */
export interface KubeletPod {
  readonly name: string;
  readonly namespace: string;
  readonly annotations: Readonly<Record<string, string>>;
  /** the v1 PodStatus as the kubelet's JSON has it */
  readonly status: Record<string, unknown>;
}

export interface KubeletEndpointInputs {
  readonly nodename: string;
  /** the API server's kubelet client certificate and key (PEM) */
  readonly cert: string;
  readonly key: string;
  /** the cluster CA (PEM) */
  readonly ca: string;
  /** the kubelet's self-signed serving certificate, '' when it has none */
  readonly servingCert?: string;
  /** default LOCAL_KUBELET_URL */
  readonly server?: string;
}

/** kubeletEndpoint: how to dial the kubelet, its certificate checked against the node name. */
export function kubeletEndpoint(i: KubeletEndpointInputs): KubeEndpoint {
  const ca = i.servingCert ? `${i.ca.endsWith('\n') ? i.ca : `${i.ca}\n`}${i.servingCert}` : i.ca;
  return { server: i.server ?? LOCAL_KUBELET_URL, ca, cert: i.cert, key: i.key, servername: i.nodename };
}

/** readKubeletServingCert reads the kubelet's self-signed certificate from its cert dir; '' when absent. */
export async function readKubeletServingCert(
  certDir: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<string> {
  try {
    return await readFile(join(certDir, KUBELET_SERVING_CERT), { encoding: 'utf8', signal });
  } catch (e) {
    // a kubelet with a CA-signed serving certificate has none, and a starting one none yet
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw e;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** kubeletPods lists the pods the kubelet runs. */
export async function kubeletPods(
  client: KubeClient,
  { signal }: { signal?: AbortSignal } = {},
): Promise<KubeletPod[]> {
  const list: unknown = await client.get('/pods/', { signal });
  // no pods is `"items": null` (a nil Go slice)
  const items = isRecord(list) ? (list.items ?? []) : undefined;
  if (!Array.isArray(items))
    throw new KubeError('status', 'GET /pods/: the kubelet answered something other than a pod list', 200);
  return items.filter(isRecord).map(podOf);
}

/** podOf keeps what a pod's JSON carries of its name, annotations and status; a missing part reads empty. */
export function podOf(item: Record<string, unknown>): KubeletPod {
  const md = isRecord(item.metadata) ? item.metadata : {};
  const annotations: Record<string, string> = {};
  if (isRecord(md.annotations))
    for (const [k, v] of Object.entries(md.annotations)) if (typeof v === 'string') annotations[k] = v;
  return {
    name: str(md.name),
    namespace: str(md.namespace),
    annotations,
    status: isRecord(item.status) ? item.status : {},
  };
}
