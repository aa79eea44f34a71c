// writeFileAtomic's order of system calls (data synced before the rename, the directory after it), its
// loop over short writes, and the parents of a directory it made: watched through node:fs itself.
import * as realFs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
let maxWrite = Number.POSITIVE_INFINITY;
const fdPaths = new Map<number, string>();

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const name = (fd: number) => fdPaths.get(fd) ?? `fd${fd}`;
  return {
    ...fs,
    openSync: (
      p: string,
      ...rest: Parameters<typeof fs.openSync> extends [unknown, ...infer R] ? R : never
    ) => {
      const fd = fs.openSync(p, ...rest);
      fdPaths.set(fd, String(p));
      calls.push(`open ${p}`);
      return fd;
    },
    writeSync: (fd: number, buf: Uint8Array, off = 0, len = buf.length - off) => {
      const n = fs.writeSync(fd, buf, off, Math.min(len, maxWrite));
      calls.push(`write ${name(fd)}`);
      return n;
    },
    fsyncSync: (fd: number) => {
      calls.push(`fsync ${name(fd)}`);
      fs.fsyncSync(fd);
    },
    closeSync: (fd: number) => {
      calls.push(`close ${name(fd)}`);
      fs.closeSync(fd);
      fdPaths.delete(fd);
    },
    renameSync: (a: string, b: string) => {
      calls.push(`rename ${a} ${b}`);
      fs.renameSync(a, b);
    },
  };
});

const { writeFileAtomic } = await import('../../../src/sys/fs/atomic-write.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-atomic-'));
  calls.length = 0;
  maxWrite = Number.POSITIVE_INFINITY;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('syncs the data before the rename and the directory after it', () => {
    const path = join(dir, 'config.yaml');
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileAtomic(path, 'a: 1\n');
    expect(calls.filter((c) => !c.startsWith('write'))).toEqual([
      `open ${tmp}`,
      `fsync ${tmp}`,
      `close ${tmp}`,
      `rename ${tmp} ${path}`,
      `open ${dir}`,
      `fsync ${dir}`,
      `close ${dir}`,
    ]);
    // every write to the temp file comes before its fsync
    const lastWrite = calls.lastIndexOf(`write ${tmp}`);
    expect(lastWrite).toBeGreaterThanOrEqual(0);
    expect(lastWrite).toBeLessThan(calls.indexOf(`fsync ${tmp}`));
    expect(readFileSync(path, 'utf8')).toBe('a: 1\n');
    expect(readdirSync(dir)).toEqual(['config.yaml']);
  });

  it('finishes the file through short writes', () => {
    maxWrite = 1000;
    const data = Buffer.alloc(10_500, 'x');
    const path = join(dir, 'big');
    writeFileAtomic(path, data);
    expect(readFileSync(path).equals(data)).toBe(true);
    expect(calls.filter((c) => c.startsWith('write')).length).toBe(11);
  });

  it("syncs the parents of the directories it made, so a new directory's entry lasts", () => {
    const path = join(dir, 'a', 'b', 'file');
    writeFileAtomic(path, 'x');
    const synced = calls.filter((c) => c.startsWith('fsync ') && !c.includes('.tmp-')).map((c) => c.slice(6));
    expect(synced).toEqual([join(dir, 'a', 'b'), join(dir, 'a'), dir]);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
  });

  it('leaves no temporary file when the rename fails', () => {
    realFs.mkdirSync(join(dir, 'taken'));
    realFs.writeFileSync(join(dir, 'taken', 'x'), '');
    // a non-empty directory cannot be renamed over
    expect(() => writeFileAtomic(join(dir, 'taken'), 'x')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});
