// Sequential put and get round trips through src/etcd's client: one call in flight, as a controller's
// read-modify-write is, so each sample is one call's whole latency (TLS, gRPC, raft, the fsync of a put).
import type { EtcdClient } from '../../../src/etcd/index.js';
import { nowMs } from '../harness.js';

export interface KvSamples {
  /** ms per call */
  readonly put: number[];
  readonly get: number[];
}

export const newSamples = (): KvSamples => ({ put: [], get: [] });

/** kvRound puts `n` keys under `prefix`, then gets each back (linearizable), adding each call's ms. */
export async function kvRound(
  client: EtcdClient,
  prefix: string,
  n: number,
  value: Buffer,
  into: KvSamples,
): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await client.put(`${prefix}/${i}`, value);
    into.put.push(nowMs() - t0);
  }
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    const got = await client.get(`${prefix}/${i}`);
    into.get.push(nowMs() - t0);
    if (!got?.equals(value)) throw new Error(`${prefix}/${i}: read back ${got?.length ?? 'nothing'}`);
  }
}
