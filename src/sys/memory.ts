// Giving memory back to the system: malloc_trim(3) and madvise(2) with MADV_PAGEOUT.
import { check } from './errno.js';
import { libc } from './libc.js';

const mallocTrim_ = libc.func('int malloc_trim(size_t pad)');
const madvise_ = libc.func('int madvise(uintptr_t addr, size_t length, int advice)');

/** MADV_PAGEOUT (Linux 5.4): reclaim the range now; clean file pages are dropped and re-read on use. */
export const MADV_PAGEOUT = 21;

/** mallocTrim returns the C heap's free pages to the kernel; true when some memory was released. */
export const mallocTrim = (): boolean => mallocTrim_(0) === 1;

/** madvise gives the kernel advice about a page-aligned range of this process's memory. */
export function madvise(addr: bigint, length: number, advice: number): void {
  check(madvise_(addr, length, advice), 'madvise', advice);
}
