// waitDelete watches one key from a revision on and returns once it is deleted (etcd's concurrency
// package waits this way for the lock holders ahead of it).
import { status } from '@grpc/grpc-js';
import type { EtcdClient, Plain } from './client.js';
import { EtcdError } from './errors.js';

export async function waitDelete(
  client: EtcdClient,
  key: Buffer,
  fromRevision: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<void> {
  signal?.throwIfAborted();
  const stream = client.duplex('Watch', 'Watch');
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      stream.on('data', (r: Plain) => {
        if (r.canceled) {
          const why = String(r.cancel_reason || `compacted at ${String(r.compact_revision)}`);
          reject(new EtcdError(status.ABORTED, `etcd: watch of ${key.toString()} canceled: ${why}`));
          return;
        }
        if ((r.events as Plain[]).some((e) => e.type === 'DELETE')) resolve();
      });
      stream.on('error', (e: Error) =>
        reject(
          new EtcdError(status.UNAVAILABLE, `etcd: watch of ${key.toString()}: ${e.message}`, { cause: e }),
        ),
      );
      stream.on('end', () =>
        reject(
          new EtcdError(status.UNAVAILABLE, `etcd: lost watcher waiting for delete of ${key.toString()}`),
        ),
      );
      stream.write({ create_request: { key, start_revision: fromRevision } });
    });
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    stream.removeAllListeners('data');
    // a cancelled call still reports its cancellation as an error: swallow it
    stream.on('error', () => {});
    stream.cancel();
  }
}
