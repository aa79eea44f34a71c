import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isFsBadRequest, isFsNotFound, readChunks } from '../../../src/sys/fs/index.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const collect = async (path: string, chunkSize?: number) => {
  const out: Buffer[] = [];
  for await (const c of readChunks(path, chunkSize ? { chunkSize } : {})) out.push(c);
  return out;
};

describe('readChunks', () => {
  it('returns the bytes of a file in chunks', async () => {
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    writeFileSync(join(dir, 'f'), data);
    const chunks = await collect(join(dir, 'f'), 4096);
    expect(chunks.map((c) => c.length)).toEqual([4096, 4096, 1808]);
    expect(Buffer.concat(chunks)).toEqual(data);
  });

  it('reads /proc files, whose size is zero, to the end', async () => {
    const text = Buffer.concat(await collect('/proc/self/status')).toString();
    expect(text).toMatch(/^Name:/);
  });

  it('reads an empty file as no chunks', async () => {
    writeFileSync(join(dir, 'empty'), '');
    expect(await collect(join(dir, 'empty'))).toEqual([]);
  });

  it.each([
    ['missing', isFsNotFound],
    ['.', isFsBadRequest],
  ])('refuses %s', async (name, pred) => {
    const err = await collect(join(dir, name)).catch((e: unknown) => e);
    expect(pred(err)).toBe(true);
  });

  it('closes its handle when the reader stops early or the signal aborts', async () => {
    const file = join(dir, 'g');
    writeFileSync(file, Buffer.alloc(50_000, 1));
    const open = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false;
        }
      });
    for await (const _ of readChunks(file, { chunkSize: 1000 })) break;
    expect(open()).toEqual([]);
    const ac = new AbortController();
    const err = await (async () => {
      for await (const _ of readChunks(file, { chunkSize: 1000, signal: ac.signal }))
        ac.abort(new Error('stop'));
    })().catch((e: unknown) => e);
    expect((err as Error).message).toBe('stop');
    expect(open()).toEqual([]);
    expect(readFileSync(file)).toHaveLength(50_000);
  });
});
