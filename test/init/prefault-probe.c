/*
 * Probe of prefault.so: makes fresh PROT_NONE ranges writable through mprotect (the dynamic symbol, which
 * a preload replaces) and prints how many of their pages are resident before a byte is touched, the same
 * for glibc's heap as main finds it, then what a failing mprotect returns and whether LD_PRELOAD or
 * GLIBC_TUNABLES reached main's environment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* pages of [addr, addr+len) present in the page tables */
static size_t resident(void *addr, size_t len) {
  size_t pages = len / 4096, n = 0;
  unsigned char *vec = malloc(pages);
  if (!vec || mincore(addr, len, vec) != 0) {
    perror("mincore");
    exit(1);
  }
  for (size_t i = 0; i < pages; i++) n += vec[i] & 1;
  free(vec);
  return n;
}

/* one guard page each side keeps the range from merging with a neighbour of the same protection */
static void probe(const char *name, size_t len, int prot) {
  char *base = mmap(NULL, len + 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    perror("mmap");
    exit(1);
  }
  if (mprotect(base + 4096, len, prot) != 0) {
    perror("mprotect");
    exit(1);
  }
  printf("%s %zu/%zu\n", name, resident(base + 4096, len), len / 4096);
}

int main(void) {
  /* the heap as the process starts with it: one allocation made, nothing of it touched by the probe */
  void *volatile first = malloc(1); /* volatile: the compiler would drop a malloc/free pair */
  free(first);
  size_t arena = mallinfo2().arena;
  char *brk_end = sbrk(0);
  size_t heap = arena ? resident(brk_end - arena, arena) : 0;
  printf("heap %zu/%zu\n", heap, arena / 4096);
  probe("rw-256k", 256 << 10, PROT_READ | PROT_WRITE);
  probe("rwx-240k", 240 << 10, PROT_READ | PROT_WRITE | PROT_EXEC);
  probe("r-256k", 256 << 10, PROT_READ);
  probe("rw-32k", 32 << 10, PROT_READ | PROT_WRITE);
  probe("rw-8m", 8 << 20, PROT_READ | PROT_WRITE);
  errno = 0;
  int r = mprotect((void *)1, 256 << 10, PROT_READ | PROT_WRITE); /* unaligned: EINVAL */
  printf("unaligned %d %s\n", r, errno == EINVAL ? "EINVAL" : "other");
  const char *pre = getenv("LD_PRELOAD"), *tunables = getenv("GLIBC_TUNABLES");
  printf("LD_PRELOAD %s\n", pre ? pre : "(unset)");
  printf("GLIBC_TUNABLES %s\n", tunables ? tunables : "(unset)");
  return 0;
}
