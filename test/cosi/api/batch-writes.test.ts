// Batched server-stream writes over a real HTTP/2 connection: everything a handler writes at once arrives,
// in order, and it leaves in batches rather than one message per turn of the event loop.
import {
  Client,
  credentials,
  type Metadata,
  Server,
  ServerCredentials,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { streamSender } from '../../../src/cosi/api/server-calls.js';

const identity = (b: Buffer) => b;
const PATH = '/test.Batch/Stream';
const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

async function serve(count: number, batches: number[]): Promise<string> {
  const server = new Server();
  server.addService(
    {
      Stream: {
        path: PATH,
        requestStream: false,
        responseStream: true,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      },
    },
    {
      Stream: async (call: ServerWritableStream<Buffer, Buffer>) => {
        const send = streamSender(call, new AbortController().signal);
        const writev = (call as unknown as { _writev: (c: unknown[], cb: () => void) => void })._writev;
        (call as unknown as { _writev: typeof writev })._writev = (chunks, cb) => {
          batches.push(chunks.length);
          writev(chunks, cb);
        };
        for (let i = 0; i < count; i++) await send(Buffer.from(`message ${i}`));
        call.end();
      },
    },
  );
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : ok(p))),
  );
  stops.push(() => server.forceShutdown());
  return `127.0.0.1:${port}`;
}

function receive(address: string): Promise<string[]> {
  const client = new Client(address, credentials.createInsecure());
  stops.push(() => client.close());
  const got: string[] = [];
  return new Promise((ok, fail) => {
    const call = client.makeServerStreamRequest(PATH, identity, identity, Buffer.alloc(0), {} as Metadata);
    call.on('data', (b: Buffer) => got.push(b.toString()));
    call.on('error', fail);
    call.on('end', () => ok(got));
  });
}

describe('batched server-stream writes', () => {
  it('deliver every message in order, several to a write', async () => {
    const batches: number[] = [];
    const got = await receive(await serve(2_000, batches));
    expect(got).toEqual(Array.from({ length: 2_000 }, (_, i) => `message ${i}`));
    expect(Math.max(...batches)).toBeGreaterThan(1);
  });
});
