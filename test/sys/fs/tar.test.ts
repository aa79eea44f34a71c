import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paxRecord, TAR_END, type TarEntry, tarHeader, tarPadding } from '../../../src/sys/fs/index.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-tar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (over: Partial<TarEntry>): TarEntry => ({
  name: 'x',
  type: 'file',
  mode: 0o644,
  uid: 0,
  gid: 0,
  size: 0,
  mtime: 1_700_000_000,
  ...over,
});

/** archive writes the entries (with `data` for files) and returns what the real tar lists. */
function tarList(entries: readonly [TarEntry, Buffer?][]): string[] {
  const parts: Buffer[] = [];
  for (const [e, data] of entries) {
    parts.push(tarHeader(e));
    if (data) parts.push(data, tarPadding(data.length));
  }
  parts.push(TAR_END);
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.tar`);
  writeFileSync(file, Buffer.concat(parts));
  return execFileSync('tar', ['-tvf', file], { encoding: 'utf8' }).trim().split('\n');
}

describe('paxRecord', () => {
  it.each([
    ['path', 'a', '9 path=a\n'],
    ['path', 'x'.repeat(90), `99 path=${'x'.repeat(90)}\n`],
    // 98 bytes of body: 2 digits would make 100, which needs 3 digits
    ['path', 'x'.repeat(91), `101 path=${'x'.repeat(91)}\n`],
  ])('%s=%j counts its own length', (k, v, want) => {
    const rec = paxRecord(k, v);
    expect(rec).toBe(want);
    expect(Buffer.byteLength(rec)).toBe(Number(rec.split(' ')[0]));
  });
});

describe('tarHeader', () => {
  it('writes headers the real tar accepts: file, directory, symlink', () => {
    const lines = tarList([
      [entry({ name: 'dir/', type: 'directory', mode: 0o755 })],
      [entry({ name: 'dir/f.txt', size: 5 }), Buffer.from('hello')],
      [entry({ name: 'dir/l', type: 'symlink', mode: 0o777, linkname: 'f.txt' })],
    ]);
    expect(lines[0]).toMatch(/^drwxr-xr-x .* dir\/$/);
    expect(lines[1]).toMatch(/^-rw-r--r-- .* 5 .* dir\/f\.txt$/);
    expect(lines[2]).toMatch(/^lrwxrwxrwx .* dir\/l -> f\.txt$/);
  });

  it('carries long names and link targets in a PAX header', () => {
    const long = `${'d'.repeat(80)}/${'f'.repeat(80)}`;
    const lines = tarList([
      [entry({ name: long, size: 1 }), Buffer.from('x')],
      [entry({ name: 'l', type: 'symlink', linkname: long })],
    ]);
    expect(lines[0]!.endsWith(` ${long}`)).toBe(true);
    expect(lines[1]!.endsWith(`l -> ${long}`)).toBe(true);
  });

  it('pads data to whole blocks', () => {
    expect(tarPadding(0)).toHaveLength(0);
    expect(tarPadding(1)).toHaveLength(511);
    expect(tarPadding(512)).toHaveLength(0);
    expect(tarHeader(entry({}))).toHaveLength(512);
  });
});
