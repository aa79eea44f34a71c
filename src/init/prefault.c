/*
 * prefault.so: preloaded into machined (PID 1) by stage 1, which sets LD_PRELOAD (and GLIBC_TUNABLES:
 * glibc.malloc.top_pad=4 MiB) only for it.
 *
 * Machined's memory arrives 4 KiB at a time as page faults, each a kernel entry and exit of its own. With
 * page-table isolation on a CPU without PCID (QEMU's TCG has none) each of those switches page tables
 * twice and flushes the TLB both times, which costs far more than zeroing the page; a node reaching its
 * API took some 5,000 of them. Two sources fill whole ranges right after creating them, and those are
 * populated here in one call each (MADV_POPULATE_WRITE, Linux 5.14):
 *  - V8 commits its heap a page of 256 KiB at a time with mprotect(PROT_READ|PROT_WRITE) and fills it:
 *    this mprotect populates writable ranges of such sizes as it makes them (thread stacks, 8 MiB, and
 *    small ranges are left alone). Only callers that reach mprotect through the dynamic linker see it
 *    (Node and V8 do; glibc's own calls do not).
 *  - glibc's heap: the top_pad tunable makes it grow by 4 MiB at once, and the constructor populates
 *    what it holds before machined's main runs (about all machined uses up to its API).
 * Populating is an optimisation only: its failure is ignored, and mprotect's caller sees mprotect's own
 * result and errno.
 *
 * A glibc shared object (unlike stage 1, static musl): it is loaded into the glibc-linked Node.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* V8's regular pages are 256 KiB, its code pages and large objects a few hundred KiB */
#define MIN_POPULATE (64UL << 10)
#define MAX_POPULATE (4UL << 20)

__attribute__((constructor)) static void populate_heap(void) {
  // machined's children (udevd, mkfs, ...) must inherit neither the preload nor its heap setting
  unsetenv("LD_PRELOAD");
  unsetenv("GLIBC_TUNABLES");
  // the heap exists from the first allocation on: make sure there was one (volatile, or the compiler
  // drops the pair)
  void *volatile first = malloc(1);
  free(first);
  // the main arena is one brk range ending at the break
  struct mallinfo2 mi = mallinfo2();
  char *end = sbrk(0);
  if (mi.arena > 0 && end != (char *)-1) (void)syscall(SYS_madvise, end - mi.arena, mi.arena, MADV_POPULATE_WRITE);
}

__attribute__((visibility("default"))) int mprotect(void *addr, size_t len, int prot) {
  long r = syscall(SYS_mprotect, addr, len, prot);
  if (r == 0 && (prot & PROT_WRITE) && len >= MIN_POPULATE && len < MAX_POPULATE) {
    int saved = errno;
    (void)syscall(SYS_madvise, addr, len, MADV_POPULATE_WRITE);
    errno = saved;
  }
  return (int)r;
}
