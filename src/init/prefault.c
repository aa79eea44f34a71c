/*
 * prefault.so: preloaded into machined (PID 1) by stage 1, which sets LD_PRELOAD only for it.
 *
 * V8 commits its heap a page of 256 KiB at a time with mprotect(PROT_READ|PROT_WRITE) and then fills it,
 * so every 4 KiB of it arrives as a page fault: a kernel entry and exit of its own. With page-table
 * isolation on a CPU without PCID (QEMU's TCG has none) each of those switches page tables twice and
 * flushes the TLB both times, which costs far more than zeroing the page; a node reaching its API took
 * some 4,000 of them. This mprotect populates a writable range of V8's sizes in the same call
 * (MADV_POPULATE_WRITE, Linux 5.14): one kernel entry instead of 64.
 *
 * Only callers that reach mprotect through the dynamic linker see this (Node and V8 do; glibc's own
 * calls do not). Thread stacks (8 MiB) and small ranges are left alone. The populate is an optimisation
 * only: its failure is ignored and the caller sees mprotect's own result and errno.
 *
 * A glibc shared object (unlike stage 1, static musl): it is loaded into the glibc-linked Node.
 */
#define _GNU_SOURCE
#include <errno.h>
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

/* machined's children (udevd, mkfs, ...) must not inherit the preload */
__attribute__((constructor)) static void forget_preload(void) { unsetenv("LD_PRELOAD"); }

__attribute__((visibility("default"))) int mprotect(void *addr, size_t len, int prot) {
  long r = syscall(SYS_mprotect, addr, len, prot);
  if (r == 0 && (prot & PROT_WRITE) && len >= MIN_POPULATE && len < MAX_POPULATE) {
    int saved = errno;
    (void)syscall(SYS_madvise, addr, len, MADV_POPULATE_WRITE);
    errno = saved;
  }
  return (int)r;
}
