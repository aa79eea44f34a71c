/*
 * Test payload: installed as /sbin/init of a test rootfs.sqsh, it reports what stage 1 handed over and
 * exits, which ends the PID namespace. It writes to fd 3 when the test passed one, because stage 1 points
 * fds 0-2 at /dev/console, which in a namespace on a host is the host's console.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void dump_file(FILE *out, const char *key, const char *path) {
  char line[4096];
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(out, "%s (unreadable %s)\n", key, path);
    return;
  }
  while (fgets(line, sizeof line, f)) fprintf(out, "%s %s%s", key, line, strchr(line, '\n') ? "" : "\n");
  fclose(f);
}

/* the loop device backing "/", found in mountinfo ("... mountpoint ... - fstype source options") */
static void dump_root_loop(FILE *out) {
  char line[4096], mnt[PATH_MAX], fstype[64], source[64];
  FILE *f = fopen("/proc/self/mountinfo", "r");
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    char *sep = strstr(line, " - ");
    if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1) continue;
    if (sscanf(sep, " - %63s %63s", fstype, source) != 2) continue;
    if (strcmp(mnt, "/") != 0 || strncmp(source, "/dev/loop", 9) != 0) continue;
    const char *attrs[] = {"loop/backing_file", "loop/autoclear", "ro"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
      char path[256], key[256];
      snprintf(path, sizeof path, "/sys/block/%s/%s", source + 5, attrs[i]);
      snprintf(key, sizeof key, "loop %s %s", source + 5, attrs[i]);
      dump_file(out, key, path);
    }
  }
  fclose(f);
}

/*
 * 6 MiB of data nothing reads while the payload runs, so that only stage 1's read-ahead can bring those
 * pages of the executable into the page cache.
 */
__attribute__((used)) static const unsigned char ballast[6 << 20] = {1};

/* per MiB of a file, how many of its pages are in the page cache: "KEY MIB PAGES" */
static void dump_residency(FILE *out, const char *key, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(out, "%s (unreadable)\n", key);
    return;
  }
  size_t pages = ((size_t)st.st_size + 4095) / 4096;
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  unsigned char *vec = map == MAP_FAILED ? NULL : calloc(pages, 1);
  if (!vec || mincore(map, (size_t)st.st_size, vec) != 0) {
    fprintf(out, "%s (mincore failed)\n", key);
  } else {
    for (size_t mib = 0; mib * 256 < pages; mib++) {
      int n = 0;
      for (size_t i = mib * 256; i < pages && i < (mib + 1) * 256; i++) n += vec[i] & 1;
      fprintf(out, "%s %zu %d\n", key, mib, n);
    }
  }
  free(vec);
  if (map != MAP_FAILED) munmap(map, (size_t)st.st_size);
  close(fd);
}

static void list_dir(FILE *out, const char *key, const char *path, int links) {
  DIR *d = opendir(path);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))) continue;
    char target[PATH_MAX] = "", full[PATH_MAX];
    snprintf(full, sizeof full, "%s/%s", path, e->d_name);
    ssize_t n = links ? readlink(full, target, sizeof target - 1) : -1;
    if (n >= 0) target[n] = '\0';
    fprintf(out, "%s %s%s%s\n", key, e->d_name, n >= 0 ? " -> " : "", target);
  }
  closedir(d);
}

int main(int argc, char **argv, char **envp) {
  FILE *out = fdopen(fcntl(3, F_GETFD) >= 0 ? 3 : 1, "w");
  if (!out) return 1;
  fprintf(out, "pid %d\n", (int)getpid());
  fprintf(out, "argc %d\n", argc);
  for (int i = 0; i < argc; i++) fprintf(out, "argv %s\n", argv[i]);
  for (char **e = envp; *e; e++) fprintf(out, "env %s\n", *e);
  dump_file(out, "mountinfo", "/proc/self/mountinfo");
  list_dir(out, "rootdir", "/", 0);
  list_dir(out, "fd", "/proc/self/fd", 1);
  dump_root_loop(out);
  /* children stage 1 left behind (its read-ahead): waited for, as machined's reaper would */
  for (int status; wait(&status) > 0;)
    fprintf(out, "child %s %d\n", WIFEXITED(status) ? "exited" : "killed by",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  dump_residency(out, "resident", "/proc/self/exe");
  dump_residency(out, "ballast", "/etc/ballast");
  fprintf(out, "end\n");
  fclose(out);
  return 0;
}
