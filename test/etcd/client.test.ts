// EtcdClient against a real etcd (the pinned binary) over mutual TLS.
import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdClient, EtcdError } from '../../src/etcd/index.js';
import { etcdPKI, type RunningEtcd, startEtcd } from './fixtures.js';

let etcd: RunningEtcd;
beforeAll(async () => {
  etcd = await startEtcd(await etcdPKI('node', ['127.0.0.1']));
}, 180_000);
afterAll(() => etcd?.stop());

describe('EtcdClient', () => {
  it('puts and gets keys', async () => {
    const c = etcd.client();
    await c.put('keel/answer', '42');
    expect((await c.get('keel/answer'))?.toString()).toBe('42');
    expect(await c.get('keel/missing')).toBeUndefined();
  });

  it('lists the member, reports status and alarms, defragments', async () => {
    const c = etcd.client();
    const [m] = await c.memberList();
    expect(m).toMatchObject({ name: 'node', isLearner: false, clientURLs: [etcd.endpoint] });
    const s = await c.status();
    expect(s.version).toMatch(/^3\.6\./);
    expect(s.leader).toBe(m!.id);
    expect(s.memberId).toBe(m!.id);
    expect(s.dbSize).toBeGreaterThan(0);
    expect(await c.alarms()).toEqual([]);
    await c.defragment();
  });

  it('streams a snapshot whose trailing checksum holds', async () => {
    const chunks: Buffer[] = [];
    for await (const b of etcd.client().snapshot()) chunks.push(b);
    const db = Buffer.concat(chunks);
    // etcd appends the SHA-256 of the database to the snapshot stream
    const body = db.subarray(0, db.length - 32);
    expect(
      createHash('sha256')
        .update(body)
        .digest()
        .equals(db.subarray(db.length - 32)),
    ).toBe(true);
  });

  it('keeps etcd’s gRPC code on refusals, and names every endpoint when none answers', async () => {
    const c = etcd.client();
    const err = await c.memberRemove('12345').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EtcdError);
    expect((err as EtcdError).code).toBe(status.NOT_FOUND);
    expect((err as EtcdError).message).toMatch(/member not found/);

    const { admin } = await etcdPKI('other', ['127.0.0.1']);
    const none = new EtcdClient({
      endpoints: ['https://127.0.0.1:1', '127.0.0.1:2'],
      tls: admin,
      timeoutMs: 2_000,
    });
    try {
      const e2 = await none.status().catch((e: unknown) => e);
      expect((e2 as EtcdError).code).toBe(status.UNAVAILABLE);
      expect((e2 as EtcdError).message).toContain('127.0.0.1:1, 127.0.0.1:2');
    } finally {
      none.close();
    }
  });
});
