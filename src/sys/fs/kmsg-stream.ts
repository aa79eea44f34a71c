// Streaming the kernel log from /dev/kmsg with non-blocking reads: one read(2) returns one record, EAGAIN
// means "caught up" (the end without follow; a short wait with follow), EPIPE means records were overwritten.
// The reads are synchronous and come in batches: a thread-pool round trip per record cost more than the
// record itself, and at boot the ring holds hundreds of records while the API takes its first calls, so
// the event loop gets a turn between batches.
import { constants, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { setTimeout as delay, setImmediate as yieldToLoop } from 'node:timers/promises';
import { isSysError } from '../errno.js';
import { type KmsgRecord, parseKmsgRecord } from '../kmsg.js';
import { readable } from '../poller.js';
import { fsErrorOf } from './errors.js';

export interface KmsgStreamOptions {
  /** keep waiting for new records after the ring is read */
  readonly follow?: boolean;
  /** skip the records already in the ring: only records written after the call are yielded */
  readonly tail?: boolean;
  readonly path?: string;
  /**
   * how long to wait before reading again once caught up: Node offers no poll(2) on a file, and a blocking
   * read would hold a thread-pool thread that cannot be cancelled
   */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  /** most records per batch of readKmsgBatches; default 64 */
  readonly maxBatch?: number;
}

const errno = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/** KmsgItem is a parsed record, or the raw text of one that did not parse (reported, not dropped). */
export type KmsgItem =
  | { readonly type: 'record'; readonly record: KmsgRecord }
  | { readonly type: 'malformed'; readonly raw: string };

/** readKmsgStream yields the ring's records; it ends (without follow) or stops when the signal aborts. */
export async function* readKmsgStream(opts: KmsgStreamOptions = {}): AsyncGenerator<KmsgItem> {
  for await (const batch of readKmsgBatches(opts)) yield* batch;
}

/**
 * readKmsgBatches yields the ring's records a batch at a time: what the ring holds, up to maxBatch
 * records, never an empty batch. It ends (without follow) or stops when the signal aborts.
 */
export async function* readKmsgBatches(opts: KmsgStreamOptions = {}): AsyncGenerator<KmsgItem[]> {
  const path = opts.path ?? '/dev/kmsg';
  const maxBatch = opts.maxBatch ?? 64;
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (cause) {
    throw fsErrorOf(path, cause);
  }
  // a record is at most about 1 KiB of text plus its dictionary; a short buffer makes read(2) fail with EINVAL
  const buf = Buffer.alloc(16 * 1024);
  /** next reads one record, or undefined when the ring has nothing more right now */
  const next = (): string | undefined => {
    for (;;) {
      try {
        const bytesRead = readSync(fh.fd, buf, 0, buf.length, null);
        return bytesRead === 0 ? undefined : buf.toString('utf8', 0, bytesRead);
      } catch (e) {
        if (errno(e) === 'EAGAIN') return undefined;
        if (errno(e) === 'EPIPE') continue; // overwritten while we read: the next read resumes at the oldest kept
        throw fsErrorOf(path, e);
      }
    }
  };
  try {
    if (opts.tail) {
      let skipped = next();
      while (skipped !== undefined) skipped = next();
    }
    for (;;) {
      opts.signal?.throwIfAborted();
      const batch: KmsgItem[] = [];
      for (let raw = next(); raw !== undefined; raw = batch.length < maxBatch ? next() : undefined) {
        const record = parseKmsgRecord(raw);
        batch.push(record ? { type: 'record', record } : { type: 'malformed', raw });
      }
      if (batch.length > 0) {
        yield batch;
        // the reads were synchronous: let the event loop run before the next batch
        await yieldToLoop();
        continue;
      }
      if (!opts.follow) return;
      // /dev/kmsg says when a record arrives; anything epoll cannot watch (a plain file) is polled
      if (opts.pollMs === undefined && (await kmsgReadable(fh.fd, opts.signal))) continue;
      await delay(opts.pollMs ?? 200, undefined, opts.signal ? { signal: opts.signal } : {});
    }
  } finally {
    await fh.close();
  }
}

/** kmsgReadable waits for the next record through the poller; false when the file cannot be watched. */
async function kmsgReadable(fd: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await readable(fd, signal);
    return true;
  } catch (e) {
    if (isSysError(e, 'EPERM')) return false;
    throw e;
  }
}

/** bootTimeNs is the wall-clock time of boot in ns: now minus CLOCK_MONOTONIC, which kmsg stamps count from. */
export const bootTimeNs = (): bigint => BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
