import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/machined/logging/lines.js';
import { LogRing } from '../../../src/machined/logging/ring.js';

const collect = async (it: AsyncIterable<Buffer>) => {
  const parts: Buffer[] = [];
  for await (const b of it) parts.push(b);
  return Buffer.concat(parts).toString();
};

const numbered = (from: number, to: number) => {
  let s = '';
  for (let i = from; i < to; i++) s += `line ${String(i).padStart(5, '0')}\n`; // 11 bytes each
  return s;
};

describe('LogRing', () => {
  it('keeps everything while under capacity, across many small writes', async () => {
    const ring = new LogRing();
    for (let i = 0; i < 100; i++) ring.write(`w${i}\n`);
    const text = await collect(ring.read({ signal: new AbortController().signal }));
    expect(text.split('\n').filter(Boolean)).toHaveLength(100);
    expect(ring.compressedChunks).toBe(0);
  });

  it('wraps: full chunks are compressed, the oldest dropped, the newest bytes intact', async () => {
    const ring = new LogRing({ chunkSize: 1024, compressedChunks: 3, initialCapacity: 64 });
    const all = numbered(0, 2000); // 22000 bytes through a ring of 4 KiB
    ring.write(all);
    expect(ring.compressedChunks).toBe(3);
    expect(ring.written).toBe(all.length);
    const kept = await collect(ring.read({ signal: new AbortController().signal }));
    expect(kept.length).toBe(ring.written - ring.oldest);
    expect(kept.length).toBeGreaterThan(3 * 1024);
    expect(kept.length).toBeLessThanOrEqual(4 * 1024);
    expect(all.endsWith(kept)).toBe(true);
  });

  it('reads the last n lines, across compressed chunks', async () => {
    const ring = new LogRing({ chunkSize: 256, compressedChunks: 8 });
    ring.write(numbered(0, 150));
    const lines: string[] = [];
    for await (const l of readLines(ring, { signal: new AbortController().signal, tailLines: 40 }))
      lines.push(l);
    expect(lines).toHaveLength(40);
    expect(lines[0]).toBe('line 00110');
    expect(lines.at(-1)).toBe('line 00149');
  });

  it('tails a last line without a newline, and zero lines as nothing', () => {
    const ring = new LogRing();
    ring.write('a\nb\nc');
    expect(ring.slice(ring.tailOffset(2)).toString()).toBe('b\nc');
    expect(ring.slice(ring.tailOffset(0)).toString()).toBe('');
    expect(ring.slice(ring.tailOffset(10)).toString()).toBe('a\nb\nc');
  });

  it('follows new writes until aborted', async () => {
    const ring = new LogRing();
    ring.write('before\n');
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const l of readLines(ring, { signal: ac.signal, tailLines: 1, follow: true })) {
      seen.push(l);
      if (seen.length === 1) ring.write('one\ntwo');
      if (seen.length === 2) ring.write(' halves\n');
      if (seen.length === 3) ac.abort();
    }
    expect(seen).toEqual(['before', 'one', 'two halves']);
  });

  it('moves a follower overtaken by the ring to the oldest byte kept', async () => {
    const ring = new LogRing({ chunkSize: 64, compressedChunks: 1 });
    const ac = new AbortController();
    const it = ring.read({ signal: ac.signal, follow: true })[Symbol.asyncIterator]();
    const first = it.next();
    ring.write('x'.repeat(10));
    expect((await first).value?.toString()).toBe('x'.repeat(10));
    ring.write('y'.repeat(500));
    const next = (await it.next()).value!.toString();
    expect(next.length).toBe(ring.written - ring.oldest);
    expect(/^y+$/.test(next)).toBe(true);
    ac.abort();
    expect((await it.next()).done).toBe(true);
  });
});
