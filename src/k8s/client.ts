// KubeClient: the few Kubernetes REST calls Keel makes (get, create, update, server-side apply) as JSON over
// HTTPS with the kubeconfig's client certificate, on one keep-alive agent; an error status becomes a
// KubeError carrying the Status object's reason, as client-go's apierrors reads it.
import { Agent, request as httpsRequest } from 'node:https';
import { KubeError } from './errors.js';
import { type KubeEndpoint, parseKubeconfig } from './kubeconfig.js';

export type KubeObject = Record<string, unknown>;

export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/api/v1/namespaces/kube-system` */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** default application/json */
  readonly contentType?: string;
  readonly signal?: AbortSignal | undefined;
}

export interface KubeClientOptions {
  /** per request, default 30 s */
  readonly timeoutMs?: number;
}

export interface ApplyOptions {
  readonly fieldManager: string;
  /** take fields other managers own (off by default, as client-go's ApplyOptions) */
  readonly force?: boolean;
  readonly signal?: AbortSignal | undefined;
}

export class KubeClient {
  readonly #agent: Agent;
  readonly #server: URL;
  readonly #timeoutMs: number;

  constructor(endpoint: KubeEndpoint, opts: KubeClientOptions = {}) {
    this.#server = new URL(endpoint.server);
    this.#agent = new Agent({
      keepAlive: true,
      ca: endpoint.ca,
      cert: endpoint.cert,
      key: endpoint.key,
      ...(endpoint.servername ? { servername: endpoint.servername } : {}),
    });
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
  }

  /** fromKubeconfig dials the current context of a kubeconfig with embedded credentials. */
  static fromKubeconfig(text: string, opts: KubeClientOptions = {}): KubeClient {
    return new KubeClient(parseKubeconfig(text), opts);
  }

  close(): void {
    this.#agent.destroy();
  }

  get(path: string, { signal }: { signal?: AbortSignal | undefined } = {}): Promise<KubeObject> {
    return this.request({ method: 'GET', path, signal });
  }

  create(path: string, obj: KubeObject, { signal }: { signal?: AbortSignal | undefined } = {}) {
    return this.request({ method: 'POST', path, body: obj, signal });
  }

  update(path: string, obj: KubeObject, { signal }: { signal?: AbortSignal | undefined } = {}) {
    return this.request({ method: 'PUT', path, body: obj, signal });
  }

  /** apply is a server-side apply of the whole object at its own path (JSON is YAML, so sent as is). */
  apply(path: string, obj: KubeObject, opts: ApplyOptions): Promise<KubeObject> {
    return this.request({
      method: 'PATCH',
      path,
      query: { fieldManager: opts.fieldManager, ...(opts.force ? { force: 'true' } : {}) },
      body: obj,
      contentType: 'application/apply-patch+yaml',
      signal: opts.signal,
    });
  }

  request<T = KubeObject>(req: KubeRequest): Promise<T> {
    req.signal?.throwIfAborted();
    const url = new URL(req.path, this.#server);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    const what = `${req.method} ${req.path}`;
    const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    return new Promise<T>((resolve, reject) => {
      const r = httpsRequest(
        url,
        {
          method: req.method,
          agent: this.#agent,
          timeout: this.#timeoutMs,
          ...(req.signal ? { signal: req.signal } : {}),
          headers: {
            accept: 'application/json',
            ...(body ? { 'content-type': req.contentType ?? 'application/json' } : {}),
            ...(body ? { 'content-length': String(body.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => reject(transport(what, e)));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            if (code >= 200 && code < 300) {
              try {
                resolve((text ? JSON.parse(text) : {}) as T);
              } catch (e) {
                reject(transport(what, e as Error));
              }
            } else reject(statusError(what, code, text));
          });
        },
      );
      r.on('timeout', () => r.destroy(new Error(`no answer in ${this.#timeoutMs} ms`)));
      r.on('error', (e) => reject(req.signal?.aborted ? req.signal.reason : transport(what, e)));
      r.end(body);
    });
  }
}

const transport = (what: string, e: Error) =>
  new KubeError('transport', `${what}: ${e.message}`, undefined, undefined, { cause: e });

/** statusError reads the Status object an API server answers an error with (or its bare text). */
export function statusError(what: string, code: number, text: string): KubeError {
  let status: { reason?: unknown; message?: unknown } = {};
  try {
    status = JSON.parse(text) as typeof status;
  } catch {
    // not a Status: a proxy's or a bare error page
  }
  const reason = typeof status.reason === 'string' && status.reason ? status.reason : undefined;
  const message = typeof status.message === 'string' ? status.message : text.trim() || `HTTP ${code}`;
  return new KubeError('status', `${what}: ${message}`, code, reason);
}
