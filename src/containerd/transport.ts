// UnixGrpc: unary and server-streaming calls over containerd's unix socket, with the namespace sent as
// the `containerd-namespace` metadata, a deadline on every call and an AbortSignal that cancels it.
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { ContainerdError } from './errors.js';
import { checkNamespace } from './namespace.js';
import { containerdType } from './schema.js';

export type Plain = Record<string, unknown>;

/** CallOptions: where a call runs and how long it may take. */
export interface CallOptions {
  /** containerd's namespace (`system`, `k8s.io`); the CRI ignores it */
  readonly namespace?: string;
  readonly signal?: AbortSignal;
  /** default: the transport's */
  readonly timeoutMs?: number;
}

const TO_OBJECT: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  arrays: true,
};

export class UnixGrpc {
  readonly #client: Client;

  constructor(
    readonly socket: string,
    readonly timeoutMs: number,
  ) {
    this.#client = new Client(`unix://${socket}`, credentials.createInsecure(), {
      'grpc.max_receive_message_length': -1,
    });
  }

  close(): void {
    this.#client.close();
  }

  /** unary calls `/<service>/<method>`; request and reply types are full message names. */
  async unary(
    path: string,
    reqType: string,
    resType: string,
    value: Plain,
    opts: CallOptions,
  ): Promise<Plain> {
    const [req, res] = [containerdType(reqType), containerdType(resType)];
    opts.signal?.throwIfAborted();
    return new Promise<Plain>((resolve, reject) => {
      const call = this.#client.makeUnaryRequest(
        path,
        (v: Plain) => Buffer.from(req.encode(req.fromObject(v)).finish()),
        (b: Buffer) => res.toObject(res.decode(b), TO_OBJECT),
        value,
        this.#metadata(opts),
        { deadline: Date.now() + (opts.timeoutMs ?? this.timeoutMs) },
        (err, r) => (err ? reject(this.#errorOf(err, path)) : resolve(r as Plain)),
      );
      const cancel = () => call.cancel();
      opts.signal?.addEventListener('abort', cancel, { once: true });
      call.on('status', () => opts.signal?.removeEventListener('abort', cancel));
    });
  }

  /** stream calls a server-streaming method and yields each reply. */
  async *stream(path: string, reqType: string, resType: string, value: Plain, opts: CallOptions) {
    const [req, res] = [containerdType(reqType), containerdType(resType)];
    opts.signal?.throwIfAborted();
    const call = this.#client.makeServerStreamRequest(
      path,
      (v: Plain) => Buffer.from(req.encode(req.fromObject(v)).finish()),
      (b: Buffer) => res.toObject(res.decode(b), TO_OBJECT),
      value,
      this.#metadata(opts),
      { deadline: Date.now() + (opts.timeoutMs ?? this.timeoutMs) },
    );
    const cancel = () => call.cancel();
    opts.signal?.addEventListener('abort', cancel, { once: true });
    try {
      for await (const m of call as AsyncIterable<Plain>) yield m;
    } catch (e) {
      throw this.#errorOf(e, path);
    } finally {
      opts.signal?.removeEventListener('abort', cancel);
      call.cancel();
    }
  }

  #metadata(opts: CallOptions): Metadata {
    const md = new Metadata();
    if (opts.namespace) {
      checkNamespace(opts.namespace);
      md.set('containerd-namespace', opts.namespace);
    }
    return md;
  }

  #errorOf(e: unknown, path: string): ContainerdError {
    const se = e as Partial<ServiceError>;
    const code = typeof se.code === 'number' ? se.code : status.UNKNOWN;
    const why = se.details || (e as Error).message;
    return new ContainerdError(code, `containerd ${path} at ${this.socket}: ${why}`, { cause: e });
  }
}
