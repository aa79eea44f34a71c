import { type Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/api/auth/roles.js';
import {
  bidiStreamHandler,
  clientStreamHandler,
  serverStreamHandler,
  unaryHandler,
} from '../../../src/api/handlers.js';
import { type ApiServer, type NodeIdentity, startApiServer } from '../../../src/api/server.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { Role } from '../../../src/pki/index.js';
import {
  callStream,
  callUnary,
  errorOf,
  mintPKI,
  mtls,
  nodeState,
  PlainThings,
  type Reply,
  serviceClient,
  type TestPKI,
  withMetadata,
} from '../fixtures.js';

/** A port nothing listens on: connecting is refused at once. */
const UNREACHABLE = '127.0.0.1:1';

let pki: TestPKI;
let a: ApiServer;
let b: ApiServer;
let lonely: ApiServer; // no client certificate: cannot forward
const seenOnB: Caller[] = [];
const clients: Client[] = [];

const node = async (name: string, identity: NodeIdentity, record?: Caller[]) => {
  const core = await nodeState();
  await wrapCore(core).create(PlainThings.new('runtime', `only-on-${name}`, { value: name }));
  return startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: core,
    identity,
    handlers: {
      '/machine.MachineService/Hostname': unaryHandler(async (_req, ctx) => {
        record?.push(ctx.caller);
        return { messages: [{ hostname: name }] };
      }),
      '/machine.MachineService/EtcdRecover': clientStreamHandler(async (reqs) => {
        let total = 0;
        for await (const r of reqs) total += (r.bytes as Buffer).length;
        return { messages: [total === 0 ? { metadata: { error: 'empty snapshot' } } : {}] };
      }),
      '/machine.DebugService/ContainerRun': bidiStreamHandler(async (reqs, send) => {
        for await (const r of reqs)
          if (r.stdin_data)
            await send({ stdout_data: Buffer.from(`${name}: ${Buffer.from(r.stdin_data as Buffer)}`) });
        await send({ exit_code: 0 });
      }),
      '/machine.MachineService/Dmesg': serverStreamHandler(async (_req, send) => {
        await send({ bytes: Buffer.from(`${name} line 1\n`) });
        await send({ bytes: Buffer.from(`${name} line 2\n`) });
      }),
    },
  });
};

beforeAll(async () => {
  pki = await mintPKI();
  const identity = { ca: pki.osCA.crt, server: pki.server, client: pki.impersonator };
  a = await node('node-a', identity);
  b = await node('node-b', identity, seenOnB);
  lonely = await node('lonely', { ca: pki.osCA.crt, server: pki.server });
});
afterAll(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all([a, b, lonely].map((s) => s?.close({ signal: AbortSignal.timeout(5_000) })));
});

const machine = (address: string, who: keyof TestPKI = 'reader') => {
  const c = serviceClient('machine.MachineService', address, mtls(pki.osCA.crt, pki[who]));
  clients.push(c);
  return c;
};

describe('node routing', () => {
  it('fans a unary call out to every node, naming each and standing in for the unreachable one', async () => {
    const reply = await callUnary(
      machine(a.address),
      'Hostname',
      {},
      withMetadata({ nodes: `${a.address}, ${b.address}, ${UNREACHABLE}` }),
    );
    const messages = reply.messages as Reply[];
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatchObject({ metadata: { hostname: a.address }, hostname: 'node-a' });
    expect(messages[1]).toMatchObject({ metadata: { hostname: b.address }, hostname: 'node-b' });
    const failed = messages[2]!.metadata as Reply;
    expect(failed.hostname).toBe(UNREACHABLE);
    // worded as upstream's apid (Go's gRPC) words it, not as grpc-js does
    expect(failed.error).toBe(
      `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp ${UNREACHABLE}: connect: connection refused"`,
    );
    expect((failed.status as Reply).code).toBe(status.UNAVAILABLE);
  });

  it('accepts `nodes` as repeated values as well as one folded value', async () => {
    const reply = await callUnary(
      machine(a.address),
      'Hostname',
      {},
      withMetadata({ nodes: [b.address, a.address] }),
    );
    expect((reply.messages as Reply[]).map((m) => (m.metadata as Reply).hostname)).toEqual([
      b.address,
      a.address,
    ]);
  });

  it('interleaves server streams from every node, each message named, with an error item for a failure', async () => {
    const items = await callStream(
      machine(a.address),
      'Dmesg',
      {},
      withMetadata({ nodes: `${a.address},${b.address},${UNREACHABLE}` }),
    );
    const byNode = (n: string) => items.filter((i) => (i.metadata as Reply).hostname === n);
    expect(byNode(a.address).map((i) => Buffer.from(i.bytes as Buffer).toString())).toEqual([
      'node-a line 1\n',
      'node-a line 2\n',
    ]);
    expect(byNode(b.address).map((i) => Buffer.from(i.bytes as Buffer).toString())).toEqual([
      'node-b line 1\n',
      'node-b line 2\n',
    ]);
    const failed = byNode(UNREACHABLE);
    expect(failed).toHaveLength(1);
    expect((failed[0]!.metadata as Reply).error).toBeTruthy();
  });

  it('gives one-to-many failures of a reachable node their real status', async () => {
    const reply = await callUnary(
      machine(a.address, 'admin'),
      'Reboot',
      {},
      withMetadata({ nodes: b.address }),
    );
    const md = (reply.messages as Reply[])[0]!.metadata as Reply;
    expect(md.hostname).toBe(b.address);
    expect((md.status as Reply).code).toBe(status.UNIMPLEMENTED);
    expect(md.error).toContain('/machine.MachineService/Reboot');
  });

  it('proxies one-to-one untouched, errors staying real gRPC errors', async () => {
    const reply = await callUnary(machine(a.address), 'Hostname', {}, withMetadata({ node: b.address }));
    expect(reply.messages).toEqual([{ hostname: 'node-b' }]);
    const err = await errorOf(
      callUnary(machine(a.address, 'admin'), 'Reboot', {}, withMetadata({ node: b.address })),
    );
    expect(err.code).toBe(status.UNIMPLEMENTED);
  });

  it('forwards with the impersonator certificate and the caller`s roles', async () => {
    seenOnB.length = 0;
    await callUnary(machine(a.address, 'operator'), 'Hostname', {}, withMetadata({ node: b.address }));
    expect(seenOnB).toHaveLength(1);
    expect(seenOnB[0]!.impersonated).toBe(true);
    expect([...seenOnB[0]!.roles]).toEqual([Role.operator]);
  });

  it('ignores talos-role from a caller that is not a proxy', async () => {
    seenOnB.length = 0;
    const err = await errorOf(
      callUnary(machine(b.address, 'reader'), 'Rollback', {}, withMetadata({ 'talos-role': Role.admin })),
    );
    expect(err.code).toBe(status.PERMISSION_DENIED);
    await callUnary(machine(b.address, 'reader'), 'Hostname', {}, withMetadata({ 'talos-role': Role.admin }));
    expect(seenOnB[0]!.impersonated).toBe(false);
    expect([...seenOnB[0]!.roles]).toEqual([Role.reader]);
  });

  it('proxies COSI reads one-to-one to the named node', async () => {
    const state = serviceClient('cosi.resource.State', a.address, mtls(pki.osCA.crt, pki.reader));
    clients.push(state);
    const items = await callStream(
      state,
      'List',
      { namespace: 'runtime', type: PlainThings.type },
      withMetadata({ node: b.address }),
    );
    expect(items.map((i) => (i.resource as { metadata: Reply }).metadata.id)).toEqual([
      'one',
      'only-on-node-b',
    ]);
    const got = await callUnary(
      state,
      'Get',
      { namespace: 'runtime', type: PlainThings.type, id: 'only-on-node-b' },
      withMetadata({ node: b.address }),
    );
    expect((got.resource as { metadata: Reply }).metadata.id).toBe('only-on-node-b');
  });

  it('refuses to forward without a client certificate, per node, but serves itself', async () => {
    const reply = await callUnary(
      machine(lonely.address),
      'Hostname',
      {},
      withMetadata({ nodes: `${lonely.address},${b.address}` }),
    );
    const messages = reply.messages as Reply[];
    expect(messages[0]).toMatchObject({ hostname: 'lonely', metadata: { hostname: lonely.address } });
    const md = messages[1]!.metadata as Reply;
    expect((md.status as Reply).code).toBe(status.PERMISSION_DENIED);
    expect(md.error).toContain('no request forwarding');
  });

  it('rejects a `node` with several values', async () => {
    const err = await errorOf(
      callUnary(machine(a.address), 'Hostname', {}, withMetadata({ node: [a.address, b.address] })),
    );
    expect(err.code).toBe(status.INVALID_ARGUMENT);
  });

  it('forwards a client stream to one node and names it when asked with `nodes`', async () => {
    const c = machine(a.address, 'admin');
    const reply = await new Promise<Reply>((resolve, reject) => {
      const call = (c as unknown as Record<string, Function>).EtcdRecover!.call(
        c,
        withMetadata({ nodes: b.address }),
        (err: Error | null, r: Reply) => (err ? reject(err) : resolve(r)),
      );
      call.write({ bytes: Buffer.from('snapshot part 1') });
      call.write({ bytes: Buffer.from('snapshot part 2') });
      call.end();
    });
    expect(reply.messages).toEqual([{ metadata: { hostname: b.address } }]);
  });

  it('relays a bidi stream to the named node both ways', async () => {
    const debug = serviceClient('machine.DebugService', a.address, mtls(pki.osCA.crt, pki.admin));
    clients.push(debug);
    const out = await new Promise<Reply[]>((resolve, reject) => {
      const got: Reply[] = [];
      const call = (debug as unknown as Record<string, Function>).ContainerRun!.call(
        debug,
        withMetadata({ node: b.address }),
      );
      call.on('data', (m: Reply) => got.push(m));
      call.on('error', reject);
      call.on('end', () => resolve(got));
      call.write({ stdin_data: Buffer.from('hello') });
      call.end();
    });
    expect(
      out.map((m) => (m.stdout_data ? Buffer.from(m.stdout_data as Buffer).toString() : m.exit_code)),
    ).toEqual(['node-b: hello', 0]);
  });

  it('refuses to send one request stream to several nodes', async () => {
    const c = machine(a.address, 'admin');
    const err = await errorOf(
      new Promise((resolve, reject) => {
        const call = (c as unknown as Record<string, Function>).EtcdRecover!.call(
          c,
          withMetadata({ nodes: `${a.address},${b.address}` }),
          (e: Error | null, r: Reply) => (e ? reject(e) : resolve(r)),
        );
        call.end();
      }),
    );
    expect(err.code).toBe(status.INVALID_ARGUMENT);
  });
});
