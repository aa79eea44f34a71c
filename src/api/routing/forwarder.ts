// Calls to other nodes' APIs with this node's own client certificate (os:impersonator), passing serialized
// requests and replies through untouched so that no method needs code of its own.
import { type CallOptions, Client, credentials, type Metadata } from '@grpc/grpc-js';
import { type CertificateAndKey, standardKeyLabel } from '../../pki/index.js';
import { checkNamed, serverNameOptions } from '../../pki/server-name.js';
import { ApiError } from '../errors.js';
import { dialFailureWords } from './dial-failure.js';

/** The port apid listens on. */
export const API_PORT = 50000;

const identity = (b: Buffer): Buffer => b;

/** targetAddress appends the API port when a node is named without one (as talosctl does). */
export function targetAddress(node: string, port = API_PORT): string {
  if (/^\[.*\]:\d+$/.test(node) || /^[^:]+:\d+$/.test(node)) return node;
  if (node.includes(':') && !node.startsWith('[')) return `[${node}]:${port}`; // bare IPv6
  return `${node}:${port}`;
}

export interface ForwardOptions {
  readonly metadata: Metadata;
  readonly signal: AbortSignal;
  readonly deadline?: CallOptions['deadline'];
}

export interface Forwarder {
  unary(node: string, method: string, request: Buffer, opts: ForwardOptions): Promise<Buffer>;
  serverStream(node: string, method: string, request: Buffer, opts: ForwardOptions): AsyncIterable<Buffer>;
  clientStream(
    node: string,
    method: string,
    requests: AsyncIterable<Buffer>,
    opts: ForwardOptions,
  ): Promise<Buffer>;
  bidiStream(
    node: string,
    method: string,
    requests: AsyncIterable<Buffer>,
    opts: ForwardOptions,
  ): AsyncIterable<Buffer>;
  close(): void;
}

/** pump copies requests into an outgoing stream, respecting its flow control, then half-closes it. */
async function pump(
  requests: AsyncIterable<Buffer>,
  out: { write(b: Buffer): boolean; end(): void; once(ev: 'drain', fn: () => void): unknown },
): Promise<void> {
  for await (const chunk of requests)
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', r));
  out.end();
}

export interface ForwarderOptions {
  /** PEM of the CA the other nodes' API certificates chain to */
  readonly ca: string;
  /** this node's proxy client certificate (O=os:impersonator, EKU clientAuth) */
  readonly client: CertificateAndKey;
  readonly port?: number;
  /** receive limit, as the server's own */
  readonly maxMessageBytes?: number;
}

/** nodeForwarder keeps one TLS connection per target and reuses it. */
export function nodeForwarder(opts: ForwarderOptions): Forwarder {
  const creds = credentials.createSsl(
    Buffer.from(opts.ca),
    Buffer.from(standardKeyLabel(opts.client.key)),
    Buffer.from(opts.client.crt),
    { checkServerIdentity: checkNamed },
  );
  const clients = new Map<string, Client>();
  const clientFor = (node: string): Client => {
    const address = targetAddress(node, opts.port);
    let c = clients.get(address);
    if (!c) {
      c = new Client(address, creds, {
        ...serverNameOptions(address),
        interceptors: [dialFailureWords(address)],
        'grpc.max_receive_message_length': opts.maxMessageBytes ?? 32 << 20,
        'grpc.max_send_message_length': opts.maxMessageBytes ?? 32 << 20,
      });
      clients.set(address, c);
    }
    return c;
  };
  const callOptions = (o: ForwardOptions): CallOptions =>
    o.deadline !== undefined ? { deadline: o.deadline } : {};

  return {
    unary(node, method, request, o) {
      if (o.signal.aborted) return Promise.reject(o.signal.reason);
      return new Promise<Buffer>((resolve, reject) => {
        const call = clientFor(node).makeUnaryRequest(
          method,
          identity,
          identity,
          request,
          o.metadata,
          callOptions(o),
          (err, reply) => {
            o.signal.removeEventListener('abort', cancel);
            if (err) reject(err);
            else if (!reply) reject(new ApiError('internal', `${method} on ${node}: empty reply`));
            else resolve(reply);
          },
        );
        const cancel = () => call.cancel();
        o.signal.addEventListener('abort', cancel, { once: true });
      });
    },
    async *serverStream(node, method, request, o) {
      if (o.signal.aborted) throw o.signal.reason;
      const call = clientFor(node).makeServerStreamRequest(
        method,
        identity,
        identity,
        request,
        o.metadata,
        callOptions(o),
      );
      const cancel = () => call.cancel();
      o.signal.addEventListener('abort', cancel, { once: true });
      try {
        for await (const msg of call) yield msg as Buffer;
      } finally {
        o.signal.removeEventListener('abort', cancel);
        call.cancel(); // no-op once the stream has ended; stops the remote side when the consumer leaves early
      }
    },
    clientStream(node, method, requests, o) {
      if (o.signal.aborted) return Promise.reject(o.signal.reason);
      return new Promise<Buffer>((resolve, reject) => {
        const call = clientFor(node).makeClientStreamRequest(
          method,
          identity,
          identity,
          o.metadata,
          callOptions(o),
          (err, reply) => {
            o.signal.removeEventListener('abort', cancel);
            if (err) reject(err);
            else if (!reply) reject(new ApiError('internal', `${method} on ${node}: empty reply`));
            else resolve(reply);
          },
        );
        const cancel = () => call.cancel();
        o.signal.addEventListener('abort', cancel, { once: true });
        pump(requests, call).catch((err) => {
          call.cancel();
          reject(err);
        });
      });
    },
    async *bidiStream(node, method, requests, o) {
      if (o.signal.aborted) throw o.signal.reason;
      const call = clientFor(node).makeBidiStreamRequest(
        method,
        identity,
        identity,
        o.metadata,
        callOptions(o),
      );
      const cancel = () => call.cancel();
      o.signal.addEventListener('abort', cancel, { once: true });
      let pumpError: unknown;
      pump(requests, call).catch((err) => {
        pumpError = err;
        call.cancel();
      });
      try {
        for await (const msg of call) yield msg as Buffer;
        if (pumpError) throw pumpError;
      } finally {
        o.signal.removeEventListener('abort', cancel);
        call.cancel();
      }
    },
    close() {
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
}
