// ContainerdClient: containerd's own API as Keel reads it — containers, tasks, images and content blobs of
// one namespace — over its unix socket. Each call has a deadline and takes an AbortSignal.
import { type CallOptions, type Plain, UnixGrpc } from './transport.js';

export interface ContainerdClientOptions {
  /** containerd's gRPC socket */
  readonly socket: string;
  /** per call, default 10 s */
  readonly timeoutMs?: number;
}

/** NsCall: a call in one containerd namespace. */
export interface NsCall extends Omit<CallOptions, 'namespace'> {
  readonly namespace: string;
}

export interface ContainerRecord {
  readonly id: string;
  /** the image's name, empty for a container made from a bare rootfs */
  readonly image: string;
  readonly labels: Readonly<Record<string, string>>;
}

export type TaskStatus = 'UNKNOWN' | 'CREATED' | 'RUNNING' | 'STOPPED' | 'PAUSED' | 'PAUSING';

export interface TaskRecord {
  readonly containerId: string;
  readonly pid: number;
  readonly status: TaskStatus;
}

export interface DescriptorRecord {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly platform?: PlatformRecord;
}

export interface PlatformRecord {
  readonly os: string;
  readonly architecture: string;
  readonly variant?: string;
}

export interface ImageRecord {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly target: DescriptorRecord;
  readonly createdAt: Date | undefined;
}

const C = '/containerd.services.containers.v1.Containers/';
const T = '/containerd.services.tasks.v1.Tasks/';
const I = '/containerd.services.images.v1.Images/';
const B = '/containerd.services.content.v1.Content/';

export class ContainerdClient {
  readonly #rpc: UnixGrpc;

  constructor(opts: ContainerdClientOptions) {
    this.#rpc = new UnixGrpc(opts.socket, opts.timeoutMs ?? 10_000);
  }

  close(): void {
    this.#rpc.close();
  }

  async containers(opts: NsCall): Promise<ContainerRecord[]> {
    const r = await this.#rpc.unary(
      `${C}List`,
      'containerd.services.containers.v1.ListContainersRequest',
      'containerd.services.containers.v1.ListContainersResponse',
      {},
      opts,
    );
    return (r.containers as Plain[]).map((c) => ({
      id: String(c.id),
      image: String(c.image),
      labels: { ...(c.labels as Record<string, string>) },
    }));
  }

  async tasks(opts: NsCall): Promise<TaskRecord[]> {
    const r = await this.#rpc.unary(
      `${T}List`,
      'containerd.services.tasks.v1.ListTasksRequest',
      'containerd.services.tasks.v1.ListTasksResponse',
      {},
      opts,
    );
    return (r.tasks as Plain[]).map((t) => ({
      // containerd names a task by its container's id (container_id is for exec'd processes)
      containerId: String(t.container_id || t.id),
      pid: Number(t.pid),
      status: String(t.status) as TaskStatus,
    }));
  }

  async images(opts: NsCall): Promise<ImageRecord[]> {
    const r = await this.#rpc.unary(
      `${I}List`,
      'containerd.services.images.v1.ListImagesRequest',
      'containerd.services.images.v1.ListImagesResponse',
      {},
      opts,
    );
    return (r.images as Plain[]).map((i) => ({
      name: String(i.name),
      labels: { ...(i.labels as Record<string, string>) },
      target: descriptorOf((i.target as Plain | null) ?? {}),
      createdAt: dateOf(i.created_at as Plain | null),
    }));
  }

  /** info is a blob's stored size; a ContainerdError NOT_FOUND when the store lacks it. */
  async info(digest: string, opts: NsCall): Promise<{ digest: string; size: number }> {
    const r = await this.#rpc.unary(
      `${B}Info`,
      'containerd.services.content.v1.InfoRequest',
      'containerd.services.content.v1.InfoResponse',
      { digest },
      opts,
    );
    const info = (r.info as Plain | null) ?? {};
    return { digest: String(info.digest), size: Number(info.size) };
  }

  /** readBlob reads a whole blob (a manifest or an index: small) from the content store. */
  async readBlob(digest: string, opts: NsCall): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const m of this.#rpc.stream(
      `${B}Read`,
      'containerd.services.content.v1.ReadContentRequest',
      'containerd.services.content.v1.ReadContentResponse',
      { digest },
      opts,
    ))
      chunks.push(m.data as Buffer);
    return Buffer.concat(chunks);
  }
}

/** descriptorOf reads an OCI descriptor, from containerd's message or from a manifest's JSON. */
export function descriptorOf(d: Plain): DescriptorRecord {
  const p = d.platform as Plain | undefined;
  return {
    mediaType: String(d.media_type ?? d.mediaType ?? ''),
    digest: String(d.digest ?? ''),
    size: Number(d.size ?? 0),
    ...(p
      ? {
          platform: {
            os: String(p.os ?? ''),
            architecture: String(p.architecture ?? ''),
            ...(p.variant ? { variant: String(p.variant) } : {}),
          },
        }
      : {}),
  };
}

function dateOf(ts: Plain | null): Date | undefined {
  if (!ts) return undefined;
  return new Date(Number(ts.seconds) * 1000 + Math.floor(Number(ts.nanos) / 1e6));
}
