import { Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, MAX_STATUS_MESSAGE } from '../../src/api/errors.js';
import { bidiStreamHandler, clientStreamHandler, unaryHandler } from '../../src/api/handlers.js';
import { API_SERVICES, loadApiProto } from '../../src/api/proto.js';
import { DEFAULT_REQUEST_BYTES, requestLimit } from '../../src/api/request-limits.js';
import { type ApiServer, MAX_MESSAGE_BYTES, startApiServer } from '../../src/api/server.js';
import {
  callUnary,
  mintPKI,
  mtls,
  nodeState,
  type Outcome,
  rawCall,
  serviceClient,
  sniOptions,
  type TestPKI,
  withMetadata,
} from './fixtures.js';

const proto = loadApiProto();
const methods = API_SERVICES.flatMap((s) => Object.values(proto.services.get(s)!));

/** A seeded generator, so a failing case can be replayed. */
function bytes(seed: number, n: number): Buffer {
  let x = seed >>> 0 || 1;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** enumProbe sets every enum field of the request to 99, a value no enum declares. */
function enumProbe(def: object): Buffer | undefined {
  const fields = (def as { requestType: { type: { field: { number: number; type: string }[] } } }).requestType
    .type.field;
  const enums = fields.filter((f) => f.type === 'TYPE_ENUM');
  if (enums.length === 0) return undefined;
  return Buffer.concat(enums.map((f) => Buffer.from([f.number * 8, 99])));
}

let pki: TestPKI;
let server: ApiServer;
let client: Client;
beforeAll(async () => {
  pki = await mintPKI();
  server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: await nodeState(),
    identity: { ca: pki.osCA.crt, server: pki.server, client: pki.impersonator },
    // streamed-request handlers that read everything, so oversized and malformed chunks reach the decoder
    handlers: {
      '/machine.MachineService/EtcdRecover': clientStreamHandler(async (reqs) => {
        for await (const _ of reqs);
        return { messages: [{}] };
      }),
      '/machine.DebugService/ContainerRun': bidiStreamHandler(async (reqs, send) => {
        for await (const _ of reqs) await send({ exit_code: 0 });
      }),
      // a handler whose error runs to a megabyte, as a config of garbage once made the decoder's
      '/machine.MachineService/Upgrade': unaryHandler(async () => {
        throw new ApiError('invalid-argument', `${'x'.repeat(1 << 20)}`);
      }),
      // takes whatever reaches it: a request under its limit is parsed and answered
      '/machine.MachineService/ApplyConfiguration': unaryHandler(async () => ({ messages: [{}] })),
    },
  });
  client = new Client(server.address, mtls(pki.osCA.crt, pki.admin), sniOptions(server.address));
});
afterAll(async () => {
  client?.close();
  await server?.close({ signal: AbortSignal.timeout(5_000) });
});

const wellFormed = (o: Outcome, what: string) => {
  if (o.ok) return;
  expect(o.code, what).toBeGreaterThan(0);
  expect(o.code, what).toBeLessThanOrEqual(16);
  expect(typeof o.details, what).toBe('string');
};

const stillServing = async () => {
  const c = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.reader));
  try {
    const reply = await callUnary(c, 'Version', {});
    expect((reply.messages as unknown[]).length).toBe(1);
  } finally {
    c.close();
  }
};

describe('malformed input to every RPC', () => {
  it('random bytes yield a gRPC status, locally and through the one-to-many path', async () => {
    for (const [i, def] of methods.entries()) {
      const junk = bytes(i + 1, 64);
      wellFormed(await rawCall(client, def, junk), `${def.path} local`);
      if (!def.requestStream)
        wellFormed(
          await rawCall(client, def, junk, withMetadata({ nodes: server.address })),
          `${def.path} fan-out`,
        );
    }
    await stillServing();
  });

  it('a truncated message is INVALID_ARGUMENT (or INTERNAL from the COSI codec), never a crash', async () => {
    const truncated = Buffer.from([0x0a, 0x05, 0x61, 0x62]); // field 1 claims 5 bytes, 2 follow
    for (const def of methods) {
      const o = await rawCall(client, def, truncated);
      wellFormed(o, def.path);
      if (!def.requestStream) expect(o.ok, def.path).toBe(false);
    }
    await stillServing();
  });

  it('unknown enum values are carried, not fatal', async () => {
    let probed = 0;
    for (const def of methods) {
      const probe = enumProbe(def);
      if (!probe) continue;
      probed++;
      wellFormed(await rawCall(client, def, probe), def.path);
    }
    expect(probed).toBeGreaterThan(5);
    await stillServing();
  });

  it('an oversized message is RESOURCE_EXHAUSTED for each call shape', async () => {
    const huge = Buffer.alloc(MAX_MESSAGE_BYTES + 1);
    const shapes = [
      proto.services.get('machine.MachineService')!.Version!,
      proto.services.get('machine.MachineService')!.Dmesg!,
      proto.services.get('machine.MachineService')!.EtcdRecover!,
      proto.services.get('machine.DebugService')!.ContainerRun!,
      proto.services.get('cosi.resource.State')!.Get!,
    ];
    for (const def of shapes) {
      const o = def.requestStream ? await rawCallStreaming(def, huge) : await rawCall(client, def, huge);
      expect(o, def.path).toMatchObject({ ok: false, code: status.RESOURCE_EXHAUSTED });
    }
    await stillServing();
  });
});

describe("each method's own request limit, below the message limit", () => {
  const machine = proto.services.get('machine.MachineService')!;
  const state = proto.services.get('cosi.resource.State')!;

  it('a request over it is RESOURCE_EXHAUSTED naming the limit, before it is parsed', async () => {
    // zeros: field number 0, which no parser takes; a parsed request would fail otherwise
    const over = (path: string) => Buffer.alloc(requestLimit(path) + 1);
    for (const def of [
      machine.Version!,
      machine.Dmesg!,
      state.Get!,
      state.Watch!,
      machine.ApplyConfiguration!,
    ]) {
      const o = await rawCall(client, def, over(def.path));
      expect(o, def.path).toEqual({
        ok: false,
        code: status.RESOURCE_EXHAUSTED,
        details: `${def.path}: the request is ${requestLimit(def.path) + 1} bytes, over this method's limit of ${requestLimit(def.path)} bytes`,
      });
    }
    expect(requestLimit(machine.Version!.path)).toBe(DEFAULT_REQUEST_BYTES);
    await stillServing();
  });

  it('a config of megabytes is within ApplyConfiguration’s limit', async () => {
    const def = machine.ApplyConfiguration!;
    expect(requestLimit(def.path)).toBeGreaterThan(4 << 20);
    // field 1 (data), 2 MiB long: a well-formed request over the default limit
    const data = Buffer.alloc(2 << 20, 0x61);
    const header = Buffer.from([0x0a, 0x80, 0x80, 0x80, 0x01]);
    expect(await rawCall(client, def, Buffer.concat([header, data]))).toEqual({ ok: true });
  });
});

describe('status messages', () => {
  it('a handler’s megabyte of error reaches the client as a status, cut to its bound', async () => {
    const o = await rawCall(client, proto.services.get('machine.MachineService')!.Upgrade!, Buffer.alloc(0));
    expect(o.ok).toBe(false);
    if (o.ok) return;
    expect(o.code).toBe(status.INVALID_ARGUMENT);
    expect(o.details).toBe(
      `${'x'.repeat(MAX_STATUS_MESSAGE)}… (${(1 << 20) - MAX_STATUS_MESSAGE} more characters cut)`,
    );
    await stillServing();
  });
});

/** rawCallStreaming sends one oversized message on a client or bidi stream. */
function rawCallStreaming(def: { path: string; responseStream: boolean }, msg: Buffer): Promise<Outcome> {
  const pass = (b: Buffer) => b;
  return new Promise((resolve) => {
    const fail = (err: { code: number; details: string }) =>
      resolve({ ok: false, code: err.code, details: err.details });
    if (!def.responseStream) {
      const call = client.makeClientStreamRequest(def.path, pass, pass, (err) =>
        err ? fail(err) : resolve({ ok: true }),
      );
      call.write(msg);
      call.end();
      return;
    }
    const call = client.makeBidiStreamRequest(def.path, pass, pass);
    call.on('data', () => undefined);
    call.on('error', fail);
    call.on('end', () => resolve({ ok: true }));
    call.write(msg);
    call.end();
  });
}
