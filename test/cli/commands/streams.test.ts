// keelctl services/service, dmesg, logs and read against real nodes: tables and streams, per-node prefixes,
// follow stopped by Ctrl-C, and UNIMPLEMENTED surfaced with the server's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HandlerMap, serverStreamHandler, unaryHandler } from '../../../src/api/handlers.js';
import { keelctl, run, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

const handlers = (name: string): HandlerMap => ({
  '/machine.MachineService/ServiceList': unaryHandler(async () => ({
    messages: [
      {
        services: [
          { id: 'apid', state: 'Running', health: { healthy: true, last_message: 'all good' }, events: {} },
          { id: 'etcd', state: 'Waiting', health: { unknown: true }, events: {} },
        ],
      },
    ],
  })),
  '/machine.MachineService/ServiceRestart': unaryHandler(async (req) => ({
    messages: [{ resp: `Service "${req.id}" restarted` }],
  })),
  '/machine.MachineService/Dmesg': serverStreamHandler(async (_req, send) => {
    await send({ bytes: Buffer.from(`${name} kernel: one\n`) });
    await send({ bytes: Buffer.from(`${name} kernel: two\n`) });
  }),
  '/machine.MachineService/Logs': serverStreamHandler(async (req, send, ctx) => {
    // a line cut across two chunks must still print as one line
    await send({ bytes: Buffer.from(`${req.id} line 1\n${req.id} li`) });
    await send({ bytes: Buffer.from(`ne 2\n`) });
    if (!req.follow) return;
    await send({ bytes: Buffer.from('following\n') });
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
  }),
  '/machine.MachineService/Read': serverStreamHandler(async (req, send) => {
    await send({ bytes: Buffer.from(`contents of ${req.path}\nno newline at the end`) });
  }),
});

let a: TestNode;
let b: TestNode;
let wd: Workdir;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

beforeAll(async () => {
  [a, b] = await Promise.all([startNode('node-a', handlers('a')), startNode('node-b', handlers('b'))]);
  wd = await workdir(a.server.address);
});
afterAll(async () => {
  await Promise.all([a, b].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })));
  wd?.remove();
});

describe('keelctl services', () => {
  it('lists services per node', async () => {
    const r = await run(['services'], env());
    const n = a.server.address;
    expect(r.stdout).toBe(
      [
        'NODE              SERVICE   STATE     HEALTH   LAST CHANGE   LAST EVENT',
        `${n}   apid      Running   OK        ago          <none>`,
        `${n}   etcd      Waiting   ?         ago          <none>`,
        '',
      ].join('\n'),
    );
  });

  it('shows one service in detail, and names a service no node has', async () => {
    const r = await run(['service', 'apid'], env());
    expect(r.stdout).toBe(
      [
        `NODE                  ${a.server.address}`,
        'ID                    apid',
        'STATE                 Running',
        'HEALTH                OK',
        'LAST HEALTH MESSAGE   all good',
        '',
      ].join('\n'),
    );
    const missing = await run(['service', 'nope'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: service "nope" is not registered on any nodes\n');
  });
});

describe('keelctl service <id> restart', () => {
  it('prints each node’s response', async () => {
    const n = a.server.address;
    const r = await run(['service', 'kubelet', 'restart'], env());
    expect(r.stdout).toBe(`NODE${' '.repeat(n.length - 1)}RESPONSE\n${n}   Service "kubelet" restarted\n`);
    expect(r.code).toBe(0);
  });
});

describe('keelctl dmesg, logs, read', () => {
  it('prefixes every kernel log chunk with its node', async () => {
    const r = await run(['dmesg', '-n', `${a.server.address},${b.server.address}`], env());
    expect(r.stdout.split('\n').sort()).toEqual(
      [
        '',
        `${a.server.address}: a kernel: one`,
        `${a.server.address}: a kernel: two`,
        `${b.server.address}: b kernel: one`,
        `${b.server.address}: b kernel: two`,
      ].sort(),
    );
    expect(r.code).toBe(0);
  });

  it('prints a service log line by line, prefixed only with several nodes', async () => {
    const one = await run(['logs', 'kubelet', '--tail', '10'], env());
    expect(one.stdout).toBe('kubelet line 1\nkubelet line 2\n');
    const two = await run(['logs', 'kubelet', '-n', `${a.server.address},${b.server.address}`], env());
    expect(two.stdout.split('\n').sort()).toEqual(
      [
        '',
        `${a.server.address}: kubelet line 1`,
        `${a.server.address}: kubelet line 2`,
        `${b.server.address}: kubelet line 1`,
        `${b.server.address}: kubelet line 2`,
      ].sort(),
    );
  });

  it('follows a log until Ctrl-C, then exits cleanly', async () => {
    const c = keelctl(['logs', 'apid', '-f'], env());
    await c.waitFor((out) => out.endsWith('following\n'));
    c.interrupt();
    const r = await c.exited;
    expect(r.stdout).toBe('apid line 1\napid line 2\nfollowing\n');
    expect(r.code).toBe(0);
  });

  it('writes a file out unchanged', async () => {
    const r = await run(['read', '/etc/os-release'], env());
    expect(r.stdout).toBe('contents of /etc/os-release\nno newline at the end');
  });

  it('surfaces UNIMPLEMENTED for a stream the node lacks, naming the node', async () => {
    const r = await run(['read', '/x', '-e', b.server.address, '-n', b.server.address], env());
    expect(r.stdout).toBe('contents of /x\nno newline at the end');
    const missing = await run(['mounts'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `error: error on node ${a.server.address}: rpc error: code = Unimplemented desc = /machine.MachineService/Mounts is not implemented: the subsystem behind it does not exist in Keel yet\n`,
    );
  });
});
