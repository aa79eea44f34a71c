// The whole-disk lock, as udev and systemd agree on it: flock(2) on the whole disk's descriptor, shared
// to probe and exclusive to write. udevd tries a shared lock, without waiting, before it probes a disk,
// so while a writer holds the exclusive lock udevd leaves the disk and its partitions alone (newer
// versions retry once it is gone). Lock the disk, never a partition: udev only looks at the disk.
import { flock, funlock, type LockMode, tryFlock } from '../../flock.js';
import { BlockError, blockErrorOf } from './errors.js';
import { type DeviceRef, deviceLabel, fdOf } from './open.js';

export interface LockDiskOptions {
  readonly signal?: AbortSignal;
  /** give up after this long, with a BlockError coded 'locked' (default: wait as long as the signal lets) */
  readonly timeoutMs?: number;
}

/** tryLockDisk takes the lock, or returns false at once when another holder has it. */
export function tryLockDisk(d: DeviceRef, mode: LockMode): boolean {
  try {
    return tryFlock(fdOf(d), mode);
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), `flock ${mode}`, cause);
  }
}

/**
 * lockDisk waits for the lock. Changing the mode of a held lock is not atomic (flock(2)): another
 * holder may come in between.
 */
export async function lockDisk(d: DeviceRef, mode: LockMode, opts: LockDiskOptions = {}): Promise<void> {
  const { signal, timeoutMs } = opts;
  signal?.throwIfAborted();
  if (tryLockDisk(d, mode)) return;
  const timeout = new AbortController();
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            timeout.abort(
              new BlockError(
                'locked',
                deviceLabel(d),
                `another holder kept the disk locked for ${timeoutMs} ms`,
              ),
            ),
          timeoutMs,
        );
  const both = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    await flock(fdOf(d), mode, { signal: both });
  } catch (cause) {
    if (signal?.aborted) throw signal.reason; // the caller's reason, as every abort in Keel
    if (timeout.signal.aborted) throw timeout.signal.reason;
    throw blockErrorOf(deviceLabel(d), `flock ${mode}`, cause);
  } finally {
    clearTimeout(timer);
  }
}

/** unlockDisk releases the lock; closing the descriptor does too. */
export function unlockDisk(d: DeviceRef): void {
  try {
    funlock(fdOf(d));
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), 'flock unlock', cause);
  }
}

/** withDiskLock holds the lock while `fn` runs and releases it however `fn` ends. */
export async function withDiskLock<T>(
  d: DeviceRef,
  mode: LockMode,
  fn: () => Promise<T> | T,
  opts: LockDiskOptions = {},
): Promise<T> {
  await lockDisk(d, mode, opts);
  try {
    return await fn();
  } finally {
    unlockDisk(d);
  }
}
