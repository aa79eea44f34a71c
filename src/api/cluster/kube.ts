// The Kubernetes reads of the health checks: one client per health check, dialled as upstream's server
// does — with an admin kubeconfig minted as the Kubeconfig RPC mints it (so to the cluster endpoint), or
// to the endpoint the request forces — and errors worded as client-go's, which talosctl users know.
import { KubeClient, KubeError, parseKubeconfig } from '../../k8s/index.js';
import type { KubeDaemonSet, KubeDeployment, KubeNode, KubePod } from './kube-objects.js';

export interface KubeReads {
  nodes(signal: AbortSignal): Promise<KubeNode[]>;
  pods(namespace: string, selector: string | undefined, signal: AbortSignal): Promise<KubePod[]>;
  daemonSets(namespace: string, selector: string, signal: AbortSignal): Promise<KubeDaemonSet[]>;
  deployments(namespace: string, selector: string, signal: AbortSignal): Promise<KubeDeployment[]>;
  close(): void;
}

/** The API server's port when a forced endpoint names none (constants.DefaultControlPlanePort). */
const DEFAULT_PORT = 6443;

/** forcedServer is upstream's ForceEndpoint: `host[:port]`, an `https://` prefix allowed, port 6443 by default. */
export function forcedServer(endpoint: string): string {
  const hostPort = endpoint.replace(/^https:\/\//, '');
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostPort);
  const [host, port] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : /^[^:]+:\d+$/.test(hostPort)
      ? hostPort.split(':')
      : [hostPort, undefined];
  const h = host!.includes(':') ? `[${host}]` : host;
  return `https://${h}:${port ?? DEFAULT_PORT}`;
}

/** The texts Go's net package gives the connect failures Node reports by errno. */
const CONNECT_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connect: connection refused',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
  ETIMEDOUT: 'i/o timeout',
};

/**
 * kubeErrorText words a failed list call as client-go's error: a transport failure as the url.Error
 * `Get "<url>": dial tcp <host:port>: …`, an answered error by the Status message alone.
 */
export function kubeErrorText(e: unknown, url: URL, what: string): string {
  if (!(e instanceof KubeError)) return e instanceof Error ? e.message : String(e);
  if (e.code === 'status')
    return e.message.startsWith(`${what}: `) ? e.message.slice(what.length + 2) : e.message;
  const cause = e.cause as NodeJS.ErrnoException | undefined;
  const known = cause?.code ? CONNECT_ERRORS[cause.code] : undefined;
  const host = url.port ? url.host : `${url.host}:443`;
  const detail = known ? `dial tcp ${host}: ${known}` : (cause?.message ?? e.message);
  return `Get ${JSON.stringify(url.href)}: ${detail}`;
}

export interface KubeReadsOptions {
  /** the admin kubeconfig, minted on first use */
  readonly kubeconfig: (signal: AbortSignal) => Promise<string>;
  /** the request's force_endpoint; empty means the kubeconfig's server */
  readonly forceEndpoint?: string;
}

/** kubeReads builds its client on the first read (again after a failed build) and keeps it. */
export function kubeReads(opts: KubeReadsOptions): KubeReads {
  let dialled: Promise<{ client: KubeClient; server: string }> | undefined;
  let built: KubeClient | undefined;
  const dial = (signal: AbortSignal) => {
    dialled ??= (async () => {
      const endpoint = parseKubeconfig(await opts.kubeconfig(signal));
      const server = opts.forceEndpoint ? forcedServer(opts.forceEndpoint) : endpoint.server;
      built = new KubeClient({ ...endpoint, server });
      return { client: built, server };
    })().catch((e: unknown) => {
      dialled = undefined;
      throw e;
    });
    return dialled;
  };
  const list = async <T>(path: string, selector: string | undefined, signal: AbortSignal): Promise<T[]> => {
    const { client, server } = await dial(signal);
    const query = selector ? { labelSelector: selector } : undefined;
    try {
      const r = await client.request<{ items?: T[] }>({
        method: 'GET',
        path,
        ...(query ? { query } : {}),
        signal,
      });
      return r.items ?? [];
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      const url = new URL(path, server);
      if (selector) url.searchParams.set('labelSelector', selector);
      throw new Error(kubeErrorText(e, url, `GET ${path}`), { cause: e });
    }
  };
  return {
    nodes: (signal) => list<KubeNode>('/api/v1/nodes', undefined, signal),
    pods: (ns, selector, signal) => list<KubePod>(`/api/v1/namespaces/${ns}/pods`, selector, signal),
    daemonSets: (ns, selector, signal) =>
      list<KubeDaemonSet>(`/apis/apps/v1/namespaces/${ns}/daemonsets`, selector, signal),
    deployments: (ns, selector, signal) =>
      list<KubeDeployment>(`/apis/apps/v1/namespaces/${ns}/deployments`, selector, signal),
    close: () => built?.close(),
  };
}
