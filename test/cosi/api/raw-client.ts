// A State client built only from the checked-in .proto files, for sending hand-made (even malformed) requests.
import { fileURLToPath } from 'node:url';
import {
  type Client,
  type ClientReadableStream,
  credentials,
  type GrpcObject,
  loadPackageDefinition,
  type ServiceClientConstructor,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

const PROTO_DIR = fileURLToPath(new URL('../../../src/cosi/api/proto/', import.meta.url));

export type Msg = Record<string, unknown>;

type UnaryMethod = 'Get' | 'Create' | 'Update' | 'Destroy' | 'Teardown' | 'TeardownAndDestroy';
type StreamMethod = 'List' | 'Watch';

type RawState = Client &
  Record<UnaryMethod, (req: Msg, cb: (err: ServiceError | null, res?: Msg) => void) => void> &
  Record<StreamMethod, (req: Msg) => ClientReadableStream<Msg>>;

/** RawClient sends plain objects and returns plain objects or the ServiceError. */
export interface RawClient {
  unary(method: UnaryMethod, req: Msg): Promise<Msg>;
  /** unaryError resolves with the error the call fails with, and throws if it succeeds */
  unaryError(method: UnaryMethod, req: Msg): Promise<ServiceError>;
  stream(method: StreamMethod, req: Msg): ClientReadableStream<Msg>;
  close(): void;
}

export function rawClient(target: string): RawClient {
  const def = loadSync(['v1alpha1/state.proto'], {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: false,
    oneofs: true,
  });
  const pkg = loadPackageDefinition(def);
  const ctor = ((pkg.cosi as GrpcObject).resource as GrpcObject).State as ServiceClientConstructor;
  const client = new ctor(target, credentials.createInsecure()) as unknown as RawState;
  const streams: ClientReadableStream<Msg>[] = [];
  const unary = (method: UnaryMethod, req: Msg) =>
    new Promise<Msg>((resolve, reject) =>
      client[method](req, (err, res) => (err ? reject(err) : resolve(res ?? {}))),
    );
  return {
    unary,
    async unaryError(method, req) {
      try {
        await unary(method, req);
      } catch (e) {
        return e as ServiceError;
      }
      throw new Error(`${method} succeeded, but an error was expected`);
    },
    stream(method, req) {
      const s = client[method](req);
      s.on('error', () => {}); // cancellations surface as errors; tests read them through the iterator
      streams.push(s);
      return s;
    },
    close() {
      for (const s of streams) s.cancel();
      client.close();
    },
  };
}

/** reader pulls messages from a server stream one at a time; `end` resolves with the final error, if any. */
export function reader(s: ClientReadableStream<Msg>) {
  const it = s[Symbol.asyncIterator]();
  return {
    async next(): Promise<Msg> {
      const r = await it.next();
      if (r.done) throw new Error('stream ended before the expected message');
      return r.value as Msg;
    },
    async end(): Promise<ServiceError | undefined> {
      try {
        const r = await it.next();
        if (!r.done) throw new Error(`expected the stream to end, got ${JSON.stringify(r.value)}`);
        return undefined;
      } catch (e) {
        return e as ServiceError;
      }
    },
  };
}
