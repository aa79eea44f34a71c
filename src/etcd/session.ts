// An etcd session as etcd's concurrency.Session: a lease kept alive (a keep-alive every third of its TTL)
// for as long as its holder lives; closing it revokes the lease, and with it every key attached to it.
import { status } from '@grpc/grpc-js';
import type { EtcdClient, Plain } from './client.js';
import { EtcdError } from './errors.js';

/** etcd's default session TTL, in seconds */
export const DEFAULT_SESSION_TTL = 60;

export interface EtcdSession {
  /** the lease ID, decimal */
  readonly lease: string;
  /** aborted when the lease is lost (keep-alives refused or the stream broken) */
  readonly lost: AbortSignal;
  close(): Promise<void>;
}

export interface SessionOptions {
  readonly ttlSeconds?: number;
  readonly signal?: AbortSignal;
}

/** newSession grants a lease and keeps it alive until close(). */
export async function newSession(client: EtcdClient, opts: SessionOptions = {}): Promise<EtcdSession> {
  const ttl = opts.ttlSeconds ?? DEFAULT_SESSION_TTL;
  const granted = await client.call('Lease', 'LeaseGrant', { TTL: ttl, ID: 0 }, { signal: opts.signal });
  if (granted.error) throw new EtcdError(status.UNKNOWN, `etcd: lease grant: ${String(granted.error)}`);
  const lease = String(granted.ID);
  const lost = new AbortController();
  const stream = client.duplex('Lease', 'LeaseKeepAlive');
  const loseWith = (why: string) => {
    if (!lost.signal.aborted) lost.abort(new EtcdError(status.ABORTED, `etcd: lease ${lease}: ${why}`));
  };
  stream.on('data', (r: Plain) => {
    // a TTL of 0 or less is etcd saying the lease is gone
    if (Number(r.TTL) <= 0) loseWith('expired');
  });
  stream.on('error', (e: Error) => loseWith(e.message));
  const beat = () => {
    if (!lost.signal.aborted) stream.write({ ID: lease });
  };
  const timer = setInterval(beat, Math.max(1, ttl / 3) * 1000);
  timer.unref();
  let closed = false;
  return {
    lease,
    lost: lost.signal,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      loseWith('closed');
      stream.cancel();
      // the revoke drops the lease's keys at once rather than after its TTL
      await client.call('Lease', 'LeaseRevoke', { ID: lease });
    },
  };
}
