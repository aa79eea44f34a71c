// keelctl ls, cp and events against a real node: listings, an extracted tar.gz, and the event table.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HandlerMap, serverStreamHandler } from '../../../src/api/handlers.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/spec-encode.js';
import { run, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

let tarball: Buffer;
const DIR_MODE = (1 << 31) | 0o755;

const sequenceEvent = (sequence: string, action: number) =>
  encodeSpec({ sequence, action }, { sequence: { no: 1, kind: 'string' }, action: { no: 2, kind: 'enum' } });

const handlers = (): HandlerMap => ({
  '/machine.MachineService/List': serverStreamHandler(async (req, send) => {
    await send({
      name: `${req.root}`,
      relative_name: '.',
      mode: DIR_MODE,
      size: '4096',
      modified: '0',
      is_dir: true,
    });
    await send({
      name: `${req.root}/hosts`,
      relative_name: 'hosts',
      mode: 0o644,
      size: '1500',
      modified: '86400',
    });
    await send({
      name: `${req.root}/mtab`,
      relative_name: 'mtab',
      mode: (1 << 27) | 0o777,
      link: '/proc/mounts',
    });
    await send({ name: `${req.root}/secret`, error: 'permission denied' });
  }),
  '/machine.MachineService/Copy': serverStreamHandler(async (_req, send) => {
    await send({ bytes: tarball.subarray(0, 10) });
    await send({ bytes: tarball.subarray(10) });
  }),
  '/machine.MachineService/Events': serverStreamHandler(async (_req, send) => {
    await send({
      id: 'ev1',
      actor_id: 'actor-1',
      data: { type_url: 'talos/runtime/machine.SequenceEvent', value: sequenceEvent('reboot', 1) },
    });
    await send({
      id: 'ev2',
      actor_id: '',
      data: { type_url: 'talos/runtime/machine.Unknown', value: Buffer.alloc(0) },
    });
  }),
});

let node: TestNode;
let wd: Workdir;
const env = () => ({ TALOSCONFIG: wd.talosconfig });

beforeAll(async () => {
  node = await startNode('node-a', handlers());
  wd = await workdir(node.server.address);
  const src = join(wd.dir, 'src');
  mkdirSync(join(src, 'etc', 'sub'), { recursive: true });
  writeFileSync(join(src, 'etc', 'hosts'), '127.0.0.1 localhost\n');
  writeFileSync(join(src, 'etc', 'sub', 'deep'), 'deep\n');
  execFileSync('ln', ['-s', 'hosts', join(src, 'etc', 'link')]);
  tarball = execFileSync('tar', ['-C', src, '-czf', '-', 'etc']);
});
afterAll(async () => {
  await node?.server.close({ signal: AbortSignal.timeout(5_000) });
  wd?.remove();
});

describe('keelctl ls', () => {
  it('lists names, reporting unreadable entries on stderr', async () => {
    const n = node.server.address;
    const r = await run(['ls', '/etc'], env());
    expect(r.stdout).toBe(`NODE${' '.repeat(n.length - 1)}NAME\n${n}   .\n${n}   hosts\n${n}   mtab\n`);
    expect(r.stderr).toBe(`${n}: error reading file /etc/secret: permission denied\n`);
  });

  it('lists long form with Go file modes, dates and link targets', async () => {
    const n = node.server.address;
    const r = await run(['ls', '-l', '/etc'], env());
    const pad = ' '.repeat(n.length - 4);
    expect(r.stdout).toBe(
      [
        `NODE${pad}   MODE         UID   GID   SIZE(B)   LASTMOD      NAME`,
        `${n}   drwxr-xr-x   0     0     4096      Jan 1 1970   .`,
        `${n}   -rw-r--r--   0     0     1500      Jan 2 1970   hosts`,
        `${n}   Lrwxrwxrwx   0     0     0         Jan 1 1970   mtab -> /proc/mounts`,
        '',
      ].join('\n'),
    );
  });
});

describe('keelctl cp', () => {
  it('extracts the node’s tar.gz into the local directory', async () => {
    const out = join(wd.dir, 'out');
    const r = await run(['cp', '/etc', out], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'etc', 'hosts'), 'utf8')).toBe('127.0.0.1 localhost\n');
    expect(readFileSync(join(out, 'etc', 'sub', 'deep'), 'utf8')).toBe('deep\n');
    expect(readlinkSync(join(out, 'etc', 'link'))).toBe('hosts');
  });
});

describe('keelctl events', () => {
  it('prints each known event as two lines under the header, skipping unknown payloads', async () => {
    const n = node.server.address;
    const r = await run(['events', '--tail', '-1'], env());
    const w0 = Math.max('NODE'.length, n.length, 'actor-1'.length) + 3;
    const w1 = Math.max('ID'.length, 'ev1'.length, 'reboot'.length) + 3;
    expect(r.stdout).toBe(
      [
        `${'NODE'.padEnd(w0)}${'ID'.padEnd(w1)}EVENT   ACTOR   SOURCE   MESSAGE`,
        `${n.padEnd(w0)}${'ev1'.padEnd(w1)}talos/runtime/machine.SequenceEvent`,
        `${'actor-1'.padEnd(w0)}${'reboot'.padEnd(w1)}START`,
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
  });
});
