import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libc } from '../../../src/sys/libc.js';
import { callStream, errorOf, withMetadata } from '../fixtures.js';
import { type Msg, useServer } from './harness.js';

const h = useServer();
let root: string;
let out: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'keel-api-files-'));
  out = mkdtempSync(join(tmpdir(), 'keel-api-out-'));
  writeFileSync(join(root, 'a.txt'), 'alpha\n');
  mkdirSync(join(root, 'sub', 'deeper'), { recursive: true });
  writeFileSync(join(root, 'sub', 'big.bin'), Buffer.alloc(200_000, 3));
  writeFileSync(join(root, 'sub', 'deeper', 'z.txt'), 'zz');
  symlinkSync('a.txt', join(root, 'ln'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

const machine = () => h.client('machine.MachineService');
// the test's own writer of an extended attribute; the node only reads them
const setxattr = libc.func(
  'int setxattr(const char *path, const char *name, const uint8_t *value, size_t size, int flags)',
);
const removexattr = libc.func('int removexattr(const char *path, const char *name)');
const bytesOf = (msgs: Msg[]) => Buffer.concat(msgs.map((m) => m.bytes as Buffer));

describe('Read', () => {
  it('streams the bytes of a temp file', async () => {
    const msgs = await callStream(machine(), 'Read', { path: join(root, 'sub', 'big.bin') });
    expect(bytesOf(msgs)).toEqual(Buffer.alloc(200_000, 3));
    expect(msgs.length).toBeGreaterThan(1);
  });

  it('names the node in every chunk when asked through `nodes`', async () => {
    const msgs = await callStream(
      machine(),
      'Read',
      { path: join(root, 'sub', 'big.bin') },
      withMetadata({ nodes: h.server.address }),
    );
    expect(bytesOf(msgs)).toHaveLength(200_000);
    expect(msgs.map((m) => (m.metadata as Msg).hostname)).toEqual(msgs.map(() => h.server.address));
  });

  it.each([
    ['a missing file', 'nope', status.NOT_FOUND, ''],
    ['a directory', 'sub', status.INVALID_ARGUMENT, ''],
    ['a path with a NUL byte', 'a\0b', status.INVALID_ARGUMENT, ': contains a NUL byte'],
    ['a name longer than the system takes', 'n'.repeat(300), status.INVALID_ARGUMENT, ': file name too long'],
  ])('refuses %s', async (_what, name, code, why) => {
    const err = await errorOf(callStream(machine(), 'Read', { path: join(root, name) }));
    expect(err.code).toBe(code);
    expect(err.details).toContain(`${join(root, name)}${why}`);
  });
});

describe('List', () => {
  it('lists exactly the entries of a temp tree, recursively', async () => {
    const msgs = await callStream(machine(), 'List', { root, recurse: true });
    expect(msgs.map((m) => m.relative_name)).toEqual([
      '.',
      'a.txt',
      'ln',
      'sub',
      'sub/big.bin',
      'sub/deeper',
      'sub/deeper/z.txt',
    ]);
    const byName = new Map(msgs.map((m) => [m.relative_name, m]));
    expect(byName.get('a.txt')).toMatchObject({ name: join(root, 'a.txt'), size: '6', is_dir: false });
    expect(byName.get('ln')).toMatchObject({ link: 'a.txt' });
    expect((byName.get('ln')!.mode as number) & (2 ** 27)).toBeTruthy(); // Go's ModeSymlink
    expect(byName.get('sub')!.mode).toBe(2 ** 31 + 0o755);
    expect(Number(byName.get('a.txt')!.modified)).toBeGreaterThan(0);
  });

  it('without recurse lists the root and its entries only', async () => {
    const msgs = await callStream(machine(), 'List', { root });
    expect(msgs.map((m) => m.relative_name)).toEqual(['.', 'a.txt', 'ln', 'sub']);
  });

  it('filters by type and limits the depth', async () => {
    const files = await callStream(machine(), 'List', { root, recurse: true, types: ['REGULAR'] });
    expect(files.map((m) => m.relative_name)).toEqual(['a.txt', 'sub/big.bin', 'sub/deeper/z.txt']);
    const two = await callStream(machine(), 'List', { root, recurse: true, recursion_depth: 2 });
    expect(two.map((m) => m.relative_name)).toEqual(['.', 'a.txt', 'ln', 'sub', 'sub/big.bin', 'sub/deeper']);
  });

  it('takes a negative depth with recurse as no limit, as `talosctl ls -r` sends -1', async () => {
    const all = await callStream(machine(), 'List', { root, recurse: true, recursion_depth: -1 });
    expect(all.map((m) => m.relative_name)).toContain('sub/deeper/z.txt');
  });

  it('reports extended attributes when asked (`ls -l`), and none otherwise', async () => {
    const file = join(root, 'a.txt');
    const value = Buffer.from('keel-test');
    expect(setxattr(file, 'user.keel', value, value.length, 0)).toBe(0);
    try {
      const withXattrs = await callStream(machine(), 'List', { root: file, report_xattrs: true });
      expect(withXattrs[0]!.xattrs).toContainEqual({ name: 'user.keel', data: value });
      const without = await callStream(machine(), 'List', { root: file });
      expect(without[0]!.xattrs ?? []).toEqual([]);
    } finally {
      removexattr(file, 'user.keel');
    }
  });

  it('answers NOT_FOUND for a missing root', async () => {
    const err = await errorOf(callStream(machine(), 'List', { root: join(root, 'missing') }));
    expect(err.code).toBe(status.NOT_FOUND);
  });

  it('refuses a root with a NUL byte, or a name too long, as INVALID_ARGUMENT naming why', async () => {
    const nul = await errorOf(callStream(machine(), 'List', { root: `${root}/a\0b` }));
    expect([nul.code, nul.details]).toEqual([
      status.INVALID_ARGUMENT,
      `List: ${root}/a\0b: contains a NUL byte`,
    ]);
    const long = await errorOf(callStream(machine(), 'List', { root: `${root}/${'n'.repeat(300)}` }));
    expect(long.code).toBe(status.INVALID_ARGUMENT);
    expect(long.details).toContain(': file name too long');
  });
});

describe('Copy', () => {
  it('returns a tar.gz that the real tar lists correctly', async () => {
    const msgs = await callStream(machine(), 'Copy', { root_path: root });
    expect(msgs.every((m) => m.metadata === undefined)).toBe(true);
    const file = join(out, 'copy.tar.gz');
    writeFileSync(file, bytesOf(msgs));
    const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toEqual(['a.txt', 'ln', 'sub/', 'sub/big.bin', 'sub/deeper/', 'sub/deeper/z.txt']);
    const dest = mkdtempSync(join(out, 'x-'));
    execFileSync('tar', ['-xzf', file, '-C', dest]);
    expect(execFileSync('diff', ['-r', root, dest], { encoding: 'utf8' })).toBe('');
  });

  it.each([
    ['a relative path', { root_path: 'etc' }, status.INVALID_ARGUMENT],
    ['a missing path', { root_path: '/no/such/keel/path' }, status.NOT_FOUND],
  ])('refuses %s', async (_what, req, code) => {
    expect((await errorOf(callStream(machine(), 'Copy', req))).code).toBe(code);
  });
});

describe('DiskUsage', () => {
  const duB = (...args: string[]) =>
    new Map(
      execFileSync('du', ['-b', ...args, root], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map(([size, path]) => [path!, Number(size)] as const),
    );

  it('matches du -b for a temp tree', async () => {
    const msgs = await callStream(machine(), 'DiskUsage', { paths: [root] });
    expect(new Map(msgs.map((m) => [m.name as string, Number(m.size)]))).toEqual(duB());
  });

  it('with all, matches du -b -a', async () => {
    const msgs = await callStream(machine(), 'DiskUsage', { paths: [root], all: true });
    expect(new Map(msgs.map((m) => [m.name as string, Number(m.size)]))).toEqual(duB('-a'));
  });

  it('applies depth and threshold as upstream', async () => {
    const shallow = await callStream(machine(), 'DiskUsage', { paths: [root], recursion_depth: 2 });
    expect(shallow.map((m) => m.relative_name).sort()).toEqual(['.', 'sub']);
    const big = await callStream(machine(), 'DiskUsage', { paths: [root], all: true, threshold: 100_000 });
    expect(big.map((m) => m.relative_name)).toEqual(['sub/big.bin', 'sub', '.']);
    const small = await callStream(machine(), 'DiskUsage', { paths: [root], all: true, threshold: -10 });
    expect(small.map((m) => m.relative_name).sort()).toEqual(['a.txt', 'ln', 'sub/deeper/z.txt']);
  });

  it('reports a missing path in the stream', async () => {
    const msgs = await callStream(machine(), 'DiskUsage', { paths: [join(root, 'missing')] });
    expect(msgs).toHaveLength(1);
    expect(msgs[0]!.error).toContain('missing');
  });
});

describe('Read of a node file', () => {
  const bootId = '5e0c1c8e-0000-4000-8000-000000000001';
  const node = useServer({ nodeFiles: new Map([['/proc/sys/kernel/random/boot_id', () => `${bootId}\n`]]) });

  it("answers a container node's own boot id instead of the host kernel's", async () => {
    const msgs = await callStream(node.client('machine.MachineService'), 'Read', {
      path: '/proc/sys/kernel/random/../random/boot_id',
    });
    expect(bytesOf(msgs).toString()).toBe(`${bootId}\n`);
    // every other file is the kernel's
    const other = await callStream(node.client('machine.MachineService'), 'Read', {
      path: '/proc/sys/kernel/ostype',
    });
    expect(bytesOf(other).toString()).toBe('Linux\n');
  });
});
