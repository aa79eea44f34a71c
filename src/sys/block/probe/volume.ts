// A Volume over a ReadAt: bounds-checked exact reads, with the first 64 KiB read once, since every
// magic but META's second copy and the LUKS2 secondary headers lies there (swap's 64 KiB page is the last).
import type { ReadAt, Volume } from './prober.js';

export const HEAD_SIZE = 64 * 1024;

/** volumeOf wraps `readAt` for a device of `size` bytes. */
export function volumeOf(readAt: ReadAt, size: number): Volume {
  let head: Buffer | undefined;
  const direct = (offset: number, length: number): Buffer | undefined => {
    const b = readAt(offset, length);
    return b.length < length ? undefined : b.subarray(0, length);
  };
  return {
    size,
    read(offset, length) {
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
        return undefined;
      }
      if (offset + length > size) return undefined;
      if (offset + length > HEAD_SIZE) return direct(offset, length);
      head ??= readAt(0, Math.min(size, HEAD_SIZE)).subarray(0, Math.min(size, HEAD_SIZE));
      return offset + length <= head.length ? head.subarray(offset, offset + length) : undefined;
    },
  };
}
