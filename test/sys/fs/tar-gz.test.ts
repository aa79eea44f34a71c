import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFsNotFound, writeTarGz } from '../../../src/sys/fs/index.js';
import { LONG_NAME, makeTree } from './tree.js';

let root: string;
let out: string;
beforeAll(() => {
  root = makeTree();
  out = mkdtempSync(join(tmpdir(), 'keel-targz-out-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** archive collects the chunks writeTarGz sends and writes them to a file. */
async function archive(path: string, opts: { signal?: AbortSignal } = {}) {
  const chunks: Buffer[] = [];
  const skipped = await writeTarGz(path, async (c) => void chunks.push(c), opts);
  const file = join(out, `${Math.random().toString(36).slice(2)}.tar.gz`);
  writeFileSync(file, Buffer.concat(chunks));
  return { file, skipped, chunks };
}

describe('writeTarGz', () => {
  it('makes an archive that the real tar lists, without the root itself', async () => {
    const { file, skipped } = await archive(root);
    expect(skipped).toEqual([]);
    const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toEqual(['a.txt', 'b/', 'b/c.bin', 'b/d/', 'b/d/e.txt', 'link', LONG_NAME]);
  });

  it('extracts to the same contents', async () => {
    const { file } = await archive(root);
    const dest = mkdtempSync(join(out, 'x-'));
    execFileSync('tar', ['-xzf', file, '-C', dest]);
    for (const rel of ['a.txt', 'b/c.bin', 'b/d/e.txt', LONG_NAME])
      expect(readFileSync(join(dest, rel))).toEqual(readFileSync(join(root, rel)));
    expect(readlinkSync(join(dest, 'link'))).toBe('a.txt');
  });

  it('archives what a pseudo file holds although its size says 0 (procfs, cgroupfs), as upstream', async () => {
    const { file } = await archive('/proc/sys/kernel/hostname');
    const dest = mkdtempSync(join(out, 'p-'));
    execFileSync('tar', ['-xzf', file, '-C', dest]);
    expect(readFileSync(join(dest, 'hostname'), 'utf8')).toBe(`${hostname()}\n`);
  });

  it('archives a single file under its base name', async () => {
    const { file } = await archive(join(root, 'b', 'd', 'e.txt'));
    expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })).toBe('e.txt\n');
  });

  it('skips what tar cannot hold (a socket) and reports it, archiving the rest', async () => {
    const dir = mkdtempSync(join(out, 'sock-'));
    writeFileSync(join(dir, 'keep.txt'), 'kept');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'sock'), resolve));
    try {
      const { file, skipped } = await archive(dir);
      expect(skipped).toEqual([`skipping "${join(dir, 'sock')}": not supported by tar`]);
      expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })).toBe('keep.txt\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rejects a missing root before sending anything', async () => {
    const chunks: Buffer[] = [];
    const err = await writeTarGz(join(root, 'missing'), async (c) => void chunks.push(c)).catch((e) => e);
    expect(isFsNotFound(err)).toBe(true);
    expect(chunks).toEqual([]);
  });

  it('stops when the signal aborts', async () => {
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(archive(root, { signal: ac.signal })).rejects.toThrow('gone');
  });
});
