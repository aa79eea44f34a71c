// The etcd mutex against a real etcd: held and released around a function, contenders served in the order
// they queued, a holder's lost lease handing the lock on, and nothing left under the prefix afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockMutex, newSession, prefixEnd, withLock } from '../../src/etcd/index.js';
import { etcdPKI, type RunningEtcd, startEtcd } from './fixtures.js';

let etcd: RunningEtcd;
beforeAll(async () => {
  etcd = await startEtcd(await etcdPKI('node', ['127.0.0.1']));
}, 180_000);
afterAll(() => etcd?.stop());

/** keysUnder lists the keys under a mutex's prefix */
async function keysUnder(name: string): Promise<string[]> {
  const prefix = Buffer.from(`${name}/`);
  const r = await etcd.client().call('KV', 'Range', { key: prefix, range_end: prefixEnd(prefix) });
  return (r.kvs as { key: Uint8Array }[]).map((kv) => Buffer.from(kv.key).toString());
}

describe('withLock', () => {
  it('holds the mutex while fn runs and leaves nothing behind', async () => {
    const c = etcd.client();
    const seen = await withLock(c, 'test:held', async () => keysUnder('test:held'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^test:held\/[0-9a-f]+$/);
    expect(await keysUnder('test:held')).toEqual([]);
  });

  it('serves contenders one at a time, in the order they queued', async () => {
    const c = etcd.client();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((r) => {
      releaseFirst = r;
    });
    let firstIn!: () => void;
    const entered = new Promise<void>((r) => {
      firstIn = r;
    });
    const first = withLock(c, 'test:queue', async () => {
      order.push('first in');
      firstIn();
      await firstHolds;
      order.push('first out');
    });
    await entered;
    const second = withLock(c, 'test:queue', async () => {
      order.push('second in');
    });
    // the second contender queues behind the first: two keys under the prefix
    for (let i = 0; (await keysUnder('test:queue')).length < 2; i++) {
      if (i > 200) throw new Error('the second contender never queued');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(order).toEqual(['first in']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
    expect(await keysUnder('test:queue')).toEqual([]);
  });

  it('hands the mutex on when its holder’s session ends', async () => {
    const c = etcd.client();
    const holder = await newSession(c, { ttlSeconds: 5 });
    await lockMutex(c, holder, 'test:lost');
    const waiting = withLock(c, 'test:lost', async () => keysUnder('test:lost'));
    // the holder never unlocks: revoking its lease deletes its key
    await holder.close();
    expect(holder.lost.aborted).toBe(true);
    expect(await waiting).toHaveLength(1);
    expect(await keysUnder('test:lost')).toEqual([]);
  });

  it('gives up waiting when aborted, and withdraws its key', async () => {
    const c = etcd.client();
    const holder = await newSession(c);
    const held = await lockMutex(c, holder, 'test:abort');
    const ac = new AbortController();
    const waiting = withLock(c, 'test:abort', async () => 'never', { signal: ac.signal });
    for (let i = 0; (await keysUnder('test:abort')).length < 2; i++) {
      if (i > 200) throw new Error('the contender never queued');
      await new Promise((r) => setTimeout(r, 10));
    }
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(await keysUnder('test:abort')).toEqual([held.key]);
    await held.unlock();
    await holder.close();
    expect(await keysUnder('test:abort')).toEqual([]);
  });
});
