// CriClient: the CRI (runtime.v1) as containerd's CRI plugin serves it on the same socket — pod sandboxes,
// containers and their status (pid, log path), and the images the CRI knows. Read-only calls, each with a
// deadline and an AbortSignal.
import { type CallOptions, type Plain, UnixGrpc } from './transport.js';

export interface PodSandboxRecord {
  readonly id: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly state: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface CriContainerRecord {
  readonly id: string;
  readonly podSandboxId: string;
  readonly name: string;
  readonly imageRef: string;
  readonly state: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** StatusRecord: a sandbox's or container's state, and the runtime's verbose `info` (JSON strings). */
export interface StatusRecord {
  readonly state: string;
  readonly logPath: string;
  readonly info: Readonly<Record<string, string>>;
}

export interface CriImageRecord {
  readonly id: string;
  readonly repoTags: readonly string[];
}

export interface PodSandboxFilter {
  readonly readyOnly?: boolean;
  readonly labels?: Readonly<Record<string, string>>;
}

const R = '/runtime.v1.RuntimeService/';
const IMG = '/runtime.v1.ImageService/';
const t = (name: string) => `runtime.v1.${name}`;
const strings = (m: unknown) => ({ ...((m as Record<string, string> | null) ?? {}) });

export class CriClient {
  readonly #rpc: UnixGrpc;

  constructor(opts: { readonly socket: string; readonly timeoutMs?: number }) {
    this.#rpc = new UnixGrpc(opts.socket, opts.timeoutMs ?? 10_000);
  }

  close(): void {
    this.#rpc.close();
  }

  async listPodSandbox(filter: PodSandboxFilter, opts: CallOptions): Promise<PodSandboxRecord[]> {
    const f: Plain = { label_selector: { ...filter.labels } };
    if (filter.readyOnly) f.state = { state: 'SANDBOX_READY' };
    const r = await this.#call('ListPodSandbox', { filter: f }, opts);
    return (r.items as Plain[]).map((s) => {
      const md = (s.metadata as Plain | null) ?? {};
      return {
        id: String(s.id),
        name: String(md.name ?? ''),
        namespace: String(md.namespace ?? ''),
        uid: String(md.uid ?? ''),
        state: String(s.state),
        labels: strings(s.labels),
      };
    });
  }

  async listContainers(
    filter: { readonly labels?: Readonly<Record<string, string>> },
    opts: CallOptions,
  ): Promise<CriContainerRecord[]> {
    const r = await this.#call('ListContainers', { filter: { label_selector: { ...filter.labels } } }, opts);
    return (r.containers as Plain[]).map((c) => ({
      id: String(c.id),
      podSandboxId: String(c.pod_sandbox_id),
      name: String((c.metadata as Plain | null)?.name ?? ''),
      imageRef: String(c.image_ref),
      state: String(c.state),
      labels: strings(c.labels),
      annotations: strings(c.annotations),
    }));
  }

  async podSandboxStatus(id: string, opts: CallOptions): Promise<StatusRecord> {
    const r = await this.#call('PodSandboxStatus', { pod_sandbox_id: id, verbose: true }, opts);
    const s = (r.status as Plain | null) ?? {};
    return { state: String(s.state ?? ''), logPath: '', info: strings(r.info) };
  }

  async containerStatus(id: string, opts: CallOptions): Promise<StatusRecord> {
    const r = await this.#call('ContainerStatus', { container_id: id, verbose: true }, opts);
    const s = (r.status as Plain | null) ?? {};
    return { state: String(s.state ?? ''), logPath: String(s.log_path ?? ''), info: strings(r.info) };
  }

  async listImages(opts: CallOptions): Promise<CriImageRecord[]> {
    const r = await this.#rpc.unary(
      `${IMG}ListImages`,
      t('ListImagesRequest'),
      t('ListImagesResponse'),
      {},
      opts,
    );
    return (r.images as Plain[]).map((i) => ({
      id: String(i.id),
      repoTags: (i.repo_tags as string[]).map(String),
    }));
  }

  #call(method: string, value: Plain, opts: CallOptions): Promise<Plain> {
    return this.#rpc.unary(`${R}${method}`, t(`${method}Request`), t(`${method}Response`), value, opts);
  }
}
