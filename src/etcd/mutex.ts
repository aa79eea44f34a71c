// A distributed mutex as etcd's concurrency.Mutex: each contender puts the key `<name>/<lease hex>` bound to
// its session's lease, and the lowest create revision under the prefix holds the lock; the others wait
// for every key created before theirs to be deleted (released, or gone with an expired lease).
import { status } from '@grpc/grpc-js';
import type { EtcdClient, Plain } from './client.js';
import { EtcdError } from './errors.js';
import { leaseKeyName, prefixEnd } from './keys.js';
import { type EtcdSession, newSession, type SessionOptions } from './session.js';
import { waitDelete } from './wait-delete.js';

export interface HeldMutex {
  /** the key this holder put under the prefix */
  readonly key: string;
  /** its create revision */
  readonly revision: string;
  unlock(): Promise<void>;
}

type KV = Plain & { key: Uint8Array; create_revision: string };

const kvsOf = (range: Plain | null | undefined): KV[] => (range?.kvs as KV[] | undefined) ?? [];

/** ownerRange asks for the first (or last) key by create revision under a prefix (WithFirstCreate, WithLastCreate). */
function ownerRange(prefix: Buffer, order: 'ASCEND' | 'DESCEND', maxCreateRevision?: string): Plain {
  return {
    key: prefix,
    range_end: prefixEnd(prefix),
    limit: 1,
    sort_order: order,
    sort_target: 'CREATE',
    ...(maxCreateRevision ? { max_create_revision: maxCreateRevision } : {}),
  };
}

/** lockMutex blocks until the session holds the mutex `name` (whose keys live under `name/`). */
export async function lockMutex(
  client: EtcdClient,
  session: EtcdSession,
  name: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<HeldMutex> {
  const prefix = Buffer.from(`${name}/`);
  const key = Buffer.from(leaseKeyName(`${name}/`, session.lease));
  // put our key unless this session already has one; read ours and the oldest holder in the same round trip
  let resp: Plain;
  try {
    resp = await client.call(
      'KV',
      'Txn',
      {
        compare: [{ result: 'EQUAL', target: 'CREATE', key, create_revision: 0 }],
        success: [
          { request_put: { key, value: Buffer.alloc(0), lease: session.lease } },
          { request_range: ownerRange(prefix, 'ASCEND') },
        ],
        failure: [{ request_range: { key } }, { request_range: ownerRange(prefix, 'ASCEND') }],
      },
      { signal },
    );
  } catch (e) {
    if (!signal?.aborted) throw e;
    // the put may have landed before the abort cut the call short: withdraw the key, and say why
    await client.call('KV', 'DeleteRange', { key }).catch(() => {});
    throw signal.reason;
  }
  const ops = resp.responses as Plain[];
  const revision = resp.succeeded
    ? String((resp.header as Plain).revision)
    : kvsOf(ops[0]!.response_range as Plain)[0]!.create_revision;
  const held: HeldMutex = {
    key: key.toString(),
    revision,
    async unlock() {
      await client.call('KV', 'DeleteRange', { key });
    },
  };
  const owner = kvsOf(ops[1]!.response_range as Plain)[0];
  if (!owner || owner.create_revision === revision) return held;
  try {
    await waitDeletes(client, prefix, (BigInt(revision) - 1n).toString(), signal);
    // the wait may outlive the session: the key must still be ours
    const mine = await client.call('KV', 'Range', { key }, { signal });
    if (kvsOf(mine).length === 0)
      throw new EtcdError(status.ABORTED, `etcd: mutex ${name}: session expired while waiting`);
  } catch (e) {
    await held.unlock().catch(() => {});
    // an abort mid-call surfaces as the call's Cancelled status: the caller's reason says why
    if (signal?.aborted) throw signal.reason;
    throw e;
  }
  return held;
}

/** waitDeletes waits until no key under the prefix was created at or before maxCreateRevision. */
async function waitDeletes(
  client: EtcdClient,
  prefix: Buffer,
  maxCreateRevision: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (;;) {
    const r = await client.call('KV', 'Range', ownerRange(prefix, 'DESCEND', maxCreateRevision), { signal });
    const last = kvsOf(r)[0];
    if (!last) return;
    await waitDelete(client, Buffer.from(last.key), String((r.header as Plain).revision), { signal });
  }
}

export interface WithLockOptions extends SessionOptions {
  /** told of a failed release; the lease's expiry releases the mutex anyway, so fn's result stands */
  readonly onReleaseError?: (e: unknown) => void;
}

/**
 * withLock runs fn while holding the mutex `name` in a fresh session, as upstream's etcd.WithLock: fn's
 * signal aborts when the caller's does or the session is lost; the mutex is released and the session's
 * lease revoked however fn ends.
 */
export async function withLock<T>(
  client: EtcdClient,
  name: string,
  fn: (signal: AbortSignal) => Promise<T>,
  opts: WithLockOptions = {},
): Promise<T> {
  const released = (e: unknown) => opts.onReleaseError?.(e);
  const session = await newSession(client, opts);
  try {
    const held = await lockMutex(client, session, name, opts.signal ? { signal: opts.signal } : {});
    try {
      return await fn(opts.signal ? AbortSignal.any([opts.signal, session.lost]) : session.lost);
    } finally {
      await held.unlock().catch(released);
    }
  } finally {
    await session.close().catch(released);
  }
}
