import { randomUUID } from 'node:crypto';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isFsNotFound, type KmsgItem, readKmsgBatches, readKmsgStream } from '../../../src/sys/fs/index.js';

// Reading /dev/kmsg needs CAP_SYSLOG (or dmesg_restrict=0); writing it needs root.
const mark = () => {
  const text = `keel-kmsg-test ${randomUUID()}`;
  writeFileSync('/dev/kmsg', `<14>${text}\n`);
  return text;
};

/** openFiles lists what this process's descriptors point at. */
const openFiles = () =>
  readdirSync('/proc/self/fd').map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '';
    }
  });

const texts = (items: KmsgItem[]) => items.flatMap((i) => (i.type === 'record' ? [i.record.message] : []));

describe('readKmsgStream', () => {
  it('reads the ring up to now and ends, in sequence order', async () => {
    const text = mark();
    const items: KmsgItem[] = [];
    for await (const i of readKmsgStream()) items.push(i);
    expect(texts(items)).toContain(text);
    const seqs = items.flatMap((i) => (i.type === 'record' ? [i.record.seq] : []));
    expect([...seqs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(seqs);
  });

  it('with tail, skips what the ring already held', async () => {
    const before = mark();
    const items: KmsgItem[] = [];
    for await (const i of readKmsgStream({ tail: true })) items.push(i);
    expect(texts(items)).not.toContain(before);
  });

  it('follows new records until the signal aborts', async () => {
    const ac = new AbortController();
    const text = mark();
    const seen: string[] = [];
    const err = await (async () => {
      for await (const i of readKmsgStream({ follow: true, pollMs: 10, signal: ac.signal })) {
        if (i.type === 'record') seen.push(i.record.message);
        if (i.type === 'record' && i.record.message === text) ac.abort(new Error('found'));
      }
    })().catch((e: unknown) => e);
    expect((err as Error).message).toBe('found');
    expect(seen).toContain(text);
    expect(openFiles()).not.toContain('/dev/kmsg'); // the handle is closed by the time the loop ends
  });

  it('reports a missing device as not-found', async () => {
    const err = await readKmsgStream({ path: '/dev/no-such-kmsg' })
      .next()
      .catch((e: unknown) => e);
    expect(isFsNotFound(err)).toBe(true);
  });
});

describe('readKmsgBatches', () => {
  it('yields the ring in batches of at most maxBatch records, never empty, in sequence order', async () => {
    for (let i = 0; i < 5; i++) mark();
    const last = mark();
    const sizes: number[] = [];
    const items: KmsgItem[] = [];
    for await (const batch of readKmsgBatches({ maxBatch: 4 })) {
      sizes.push(batch.length);
      items.push(...batch);
    }
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.every((n) => n >= 1 && n <= 4)).toBe(true);
    expect(texts(items)).toContain(last);
    const seqs = items.flatMap((i) => (i.type === 'record' ? [i.record.seq] : []));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]! > seqs[i - 1]!).toBe(true);
  });
});
