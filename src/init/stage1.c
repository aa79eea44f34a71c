/*
 * Keel stage 1: /init of the initramfs, PID 1 until it execs /sbin/init (machined).
 *
 * It mounts the pseudo filesystems, loop-mounts /rootfs.sqsh read-only at /root, switches root the way
 * util-linux switch_root does, frees the initramfs and execs /sbin/init, with a child reading /sbin/init
 * ahead into the page cache. It touches no disks and loads no modules. Extension layers (not yet) would
 * stack over /root as a read-only overlay, as upstream does.
 *
 * If PID 1 exits the kernel panics, so every failure ends in fail(): halt for ever when the kernel
 * command line says panic=0, otherwise reboot after 10 s.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* musl ships no Linux uapi headers: the kernel ABI used here, from <linux/loop.h> and <linux/openat2.h>. */
#define LOOP_CTL_GET_FREE 0x4C82
#define LOOP_CONFIGURE 0x4C0A
#define LO_FLAGS_READ_ONLY 1
#define LO_FLAGS_AUTOCLEAR 4
struct loop_info64 {
  uint64_t lo_device, lo_inode, lo_rdevice, lo_offset, lo_sizelimit;
  uint32_t lo_number, lo_encrypt_type, lo_encrypt_key_size, lo_flags;
  uint8_t lo_file_name[64], lo_crypt_name[64], lo_encrypt_key[32];
  uint64_t lo_init[2];
};
struct loop_config {
  uint32_t fd, block_size;
  struct loop_info64 info;
  uint64_t reserved[8];
};
_Static_assert(sizeof(struct loop_config) == 304, "struct loop_config must match the kernel's");
struct open_how {
  uint64_t flags, mode, resolve;
};
#define RESOLVE_IN_ROOT 0x10
#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994

#define ROOTFS "/rootfs.sqsh"
#define NEWROOT "/root"
#define INIT "/sbin/init"
/* preloaded into init when the root has it (PREFAULT_PATH in scripts/lib/image-layout.ts) */
#define PREFAULT "/usr/lib/keel/prefault.so"
/* scripts/rootfs/read-ahead.ts writes it, MAX_READ_AHEAD_RANGES there matches MAX_RANGES here */
#define READ_AHEAD_PLAN "/usr/lib/keel/init.read-ahead"
#define MAX_RANGES 1024
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older C headers lack it */
#endif
/* a traced plan is about 300 lines of ~20 bytes */
#define MAX_PLAN_BYTES (32 << 10)

static int logfd = -1;

/*
 * One write(2) to /dev/kmsg is one kernel log record. The kernel rate-limits each open /dev/kmsg file
 * to 10 records per 5 s (printk.devkmsg=ratelimit), so stage 1 logs at most 8 lines, plus 2 on failure.
 */
static void logmsg(int level, const char *fmt, ...) {
  char buf[512];
  int n = snprintf(buf, sizeof buf, "<%d>[keel] [initramfs] ", level);
  va_list ap;
  va_start(ap, fmt);
  int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
  va_end(ap);
  if (m > 0) n = (n + m > (int)sizeof buf - 2) ? (int)sizeof buf - 2 : n + m; /* truncated, not lost */
  buf[n++] = '\n';
  (void)!write(logfd >= 0 ? logfd : 2, buf, (size_t)n); /* if this fails there is nowhere to say so */
}

/* panic=0 is a whole word of the kernel's own arguments (words after "--" belong to init). */
static int cmdline_has(const char *word) {
  static char buf[4096];
  int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  for (char *save = NULL, *w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
    if (strcmp(w, "--") == 0) break;
    if (strcmp(w, word) == 0) return 1;
  }
  return 0;
}

/* fail never returns: PID 1 signals without handlers are ignored, so sleep and pause are not cut short. */
static _Noreturn void fail(const char *step, const char *path) {
  logmsg(3, "%s failed: %s: %s", step, path, strerror(errno));
  if (cmdline_has("panic=0")) {
    logmsg(3, "panic=0: halting, not rebooting");
    for (;;) pause();
  }
  logmsg(3, "rebooting in 10 s");
  struct timespec left = {10, 0};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) continue;
  sync();
  reboot(RB_AUTOBOOT);
  for (;;) pause(); /* reboot refused (no CAP_SYS_BOOT): still never return */
}

/* A directory already on another device than / is a mount point: keep what is mounted there. */
static void mount_pseudo(const char *dir, const char *fstype, unsigned long flags, const char *data) {
  struct stat d, r;
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) fail("mkdir", dir);
  if (stat(dir, &d) == 0 && stat("/", &r) == 0 && d.st_dev != r.st_dev) return;
  if (mount(fstype, dir, fstype, flags, data) != 0 && errno != EBUSY) fail("mount", dir);
}

static void open_log(void) {
  int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
  /* The kernel may start init without fds 0-2: keep the log off them, they become the console later. */
  if (fd >= 0 && fd < 3) {
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    fd = high;
  }
  logfd = fd;
}

/* Returns the configured loop device's fd; with AUTOCLEAR it must stay open until mount() holds it. */
static int attach_loop(const char *file, char *dev, size_t devlen) {
  int backing = open(file, O_RDONLY | O_CLOEXEC);
  if (backing < 0) fail("open", file);
  int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (ctl < 0) fail("open", "/dev/loop-control");
  struct loop_config cfg = {.fd = (uint32_t)backing};
  cfg.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
  strncpy((char *)cfg.info.lo_file_name, file, sizeof cfg.info.lo_file_name - 1);
  /* Another process may take the same free device between the two ioctls: retry, as losetup does. */
  for (int attempt = 0; attempt < 16; attempt++) {
    int n = ioctl(ctl, LOOP_CTL_GET_FREE);
    if (n < 0) fail("LOOP_CTL_GET_FREE", "/dev/loop-control");
    snprintf(dev, devlen, "/dev/loop%d", n);
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) fail("open", dev);
    if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
      close(ctl);
      close(backing); /* the loop device holds its own reference */
      return fd;
    }
    if (errno != EBUSY) fail("LOOP_CONFIGURE", dev);
    close(fd);
  }
  fail("LOOP_CONFIGURE", dev);
}

/* Resolved inside the new root (openat2, Linux 5.6+): absolute symlinks mean what they will there. */
static void check_init(void) {
  int root = open(NEWROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) fail("open", NEWROOT);
  struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT};
  int fd = (int)syscall(SYS_openat2, root, INIT, &how, sizeof how);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) fail("find init", INIT);
  if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
    errno = EACCES;
    fail("find init", INIT);
  }
  close(fd);
  close(root);
}

/* Deletes a tree without crossing into other filesystems (so it spares /root); returns entries removed. */
static unsigned long remove_tree(int dfd, dev_t dev) {
  unsigned long removed = 0;
  DIR *dir = fdopendir(dfd);
  if (!dir) {
    close(dfd);
    return 0;
  }
  for (struct dirent *e; (e = readdir(dir));) {
    struct stat st;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_dev != dev) continue;
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) removed += remove_tree(sub, dev);
    }
    if (unlinkat(dfd, e->d_name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) == 0) removed++;
  }
  closedir(dir);
  return removed;
}

static void switch_root(void) {
  static const char *const moves[] = {"/dev", "/proc", "/sys"};
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
    char target[32];
    snprintf(target, sizeof target, NEWROOT "%s", moves[i]);
    if (mount(moves[i], target, NULL, MS_MOVE, NULL) != 0) fail("MS_MOVE", target);
  }
  logmsg(6, "moved /dev, /proc, /sys into " NEWROOT);

  /* The initramfs stays in RAM until its files are gone. Only ever delete from a RAM-backed root. */
  int old = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct statfs sfs;
  struct stat st;
  if (old < 0 || fstatfs(old, &sfs) != 0 || fstat(old, &st) != 0) fail("open", "/");
  if ((uint32_t)sfs.f_type == RAMFS_MAGIC || (uint32_t)sfs.f_type == TMPFS_MAGIC)
    logmsg(6, "freed the initramfs: %lu entries removed", remove_tree(old, st.st_dev));
  else
    logmsg(4, "/ is not an initramfs (ramfs/tmpfs), not deleting it"); /* old stays open: harmless */

  if (chdir(NEWROOT) != 0) fail("chdir", NEWROOT);
  if (mount(".", "/", NULL, MS_MOVE, NULL) != 0) fail("MS_MOVE to /", NEWROOT);
  if (chroot(".") != 0) fail("chroot", NEWROOT);
  if (chdir("/") != 0) fail("chdir", "/");
  logmsg(6, "switched root: / is now the squashfs");
}

/* a part of /sbin/init to read ahead (the whole file is {0, UINT64_MAX}), or another whole file */
struct range {
  const char *path; /* NULL: /sbin/init */
  uint64_t off, len;
};

/* parse_u64 reads a decimal number of digits only (strtoull would take signs and blanks) up to `stop`. */
static int parse_u64(const char *s, char stop, uint64_t *out, const char **end) {
  uint64_t v = 0;
  const char *p = s;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return -1;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  if (p == s || *p != stop) return -1;
  *out = v;
  *end = p;
  return 0;
}

/*
 * load_plan reads READ_AHEAD_PLAN: '#' comments, "OFFSET LENGTH" lines (decimal) for parts of /sbin/init
 * and "/PATH" lines for whole files, at most MAX_RANGES, read in this order. It returns the number of
 * entries, 0 when the root has no plan, -1 (logged) when the plan is unusable: the caller then reads all
 * of /sbin/init, as without one.
 */
static int load_plan(struct range *r) {
  int fd = open(READ_AHEAD_PLAN, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return 0;
    logmsg(4, "ignoring " READ_AHEAD_PLAN ": %s", strerror(errno));
    return -1;
  }
  static char text[MAX_PLAN_BYTES];
  ssize_t n = read(fd, text, sizeof text);
  close(fd);
  if (n < 0 || n == (ssize_t)sizeof text) {
    logmsg(4, "ignoring " READ_AHEAD_PLAN ": %s", n < 0 ? strerror(errno) : "larger than 32 KiB");
    return -1;
  }
  text[n] = '\0';
  int count = 0, line = 0;
  for (char *s = text, *next; *s; s = next) {
    line++;
    char *nl = strchr(s, '\n');
    if (nl) *nl = '\0';
    next = nl ? nl + 1 : s + strlen(s);
    if (*s == '#' || *s == '\0') continue;
    const char *end;
    if (count == MAX_RANGES) {
      logmsg(4, "ignoring " READ_AHEAD_PLAN ": more than %d ranges (line %d)", MAX_RANGES, line);
      return -1;
    }
    if (*s == '/') {
      r[count++] = (struct range){s, 0, UINT64_MAX}; /* the text is static: the path stays valid */
      continue;
    }
    r[count].path = NULL;
    if (parse_u64(s, ' ', &r[count].off, &end) != 0 || parse_u64(end + 1, '\0', &r[count].len, &end) != 0 ||
        r[count].len == 0) {
      logmsg(4,
             "ignoring " READ_AHEAD_PLAN ": line %d is neither \"OFFSET LENGTH\" (decimal, length > 0)"
             " nor a path",
             line);
      return -1;
    }
    count++;
  }
  return count;
}

/*
 * read_range brings [off, off + len) of fd (up to the file's end) into the page cache. It maps the range
 * and populates the mapping (MADV_POPULATE_READ: the fault path reads it, synchronously, and nothing is
 * copied to user space: under TCG the copies of read(2) into a buffer were a twentieth of the kernel's
 * time while Node started); readahead(2) would not do: it reads at most the device's read-ahead window per
 * call and returns 0 when it reads nothing at all. Where populating is refused (before Linux 5.14), the
 * bytes are read and dropped.
 */
static void read_range(int fd, uint64_t off, uint64_t len) {
  struct stat st;
  if (fstat(fd, &st) != 0 || off >= (uint64_t)st.st_size) return;
  if (len > (uint64_t)st.st_size - off) len = (uint64_t)st.st_size - off;
  uint64_t start = off & ~(uint64_t)4095;
  size_t span = (size_t)(len + (off - start));
  void *map = mmap(NULL, span, PROT_READ, MAP_SHARED, fd, (off_t)start);
  if (map != MAP_FAILED) {
    int populated = madvise(map, span, MADV_POPULATE_READ) == 0;
    munmap(map, span);
    if (populated) return;
  }
  static char buf[1 << 20];
  for (uint64_t at = off, left = len; left > 0;) {
    ssize_t n = pread(fd, buf, left < sizeof buf ? (size_t)left : sizeof buf, (off_t)at);
    if (n <= 0) return; /* the end of the file, or it cannot be read: the next entry, if any */
    at += (uint64_t)n;
    left -= (uint64_t)n;
  }
}

/*
 * Node's start faults in pages of its 88 MB executable, and on a squashfs each fault that misses the page
 * cache decompresses a whole block on the faulting CPU. A child reads the file meanwhile, on another CPU
 * when there is one, so most of Node's faults find the page decompressed (under TCG: exec -> machined's
 * first line 2.5 -> 1.6 s). The root's plan names the parts worth reading and other files (koffi's addon,
 * which machined loads before its API listens), in order: the squashfs blocks a traced start touched, in
 * the order it touched them, or, without a trace of this node, all but ICU's data (save the few items of
 * it the start reads); without a plan the whole file is read. Best effort: without it the boot is
 * only slower. The child holds nothing open but what it reads, and PID 1 (machined) reaps it.
 */
static void read_init_ahead(void) {
  static struct range plan[MAX_RANGES];
  int ranges = load_plan(plan);
  if (ranges <= 0) {
    plan[0] = (struct range){NULL, 0, UINT64_MAX};
    ranges = 1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    logmsg(4, "cannot read " INIT " ahead: fork: %s", strerror(errno));
    return;
  }
  if (pid > 0) {
    if (ranges == 1 && !plan[0].path && plan[0].len == UINT64_MAX) {
      logmsg(6, "reading " INIT " ahead in pid %d", (int)pid);
      return;
    }
    uint64_t total = 0;
    int parts = 0;
    for (int i = 0; i < ranges; i++)
      if (!plan[i].path) {
        total += plan[i].len;
        parts++;
      }
    logmsg(6, "reading " INIT " ahead in pid %d: %d range(s), %llu KiB, and %d other file(s), as " READ_AHEAD_PLAN
           " says", (int)pid, parts, (unsigned long long)(total >> 10), ranges - parts);
    return;
  }
  for (int fd = 0; fd < 1024; fd++) close(fd);
  int init = open(INIT, O_RDONLY | O_CLOEXEC);
  for (int i = 0; i < ranges; i++) {
    int fd = plan[i].path ? open(plan[i].path, O_RDONLY | O_CLOEXEC) : init;
    if (fd < 0) continue; /* best effort: a file the plan names may be missing */
    read_range(fd, plan[i].off, plan[i].len);
    if (plan[i].path) close(fd);
  }
  _exit(0);
}

/* O_NOCTTY: the console must not become PID 1's controlling tty, or ^C on it would signal machined. */
static void console_fds(void) {
  int fd = open("/dev/console", O_RDWR | O_NOCTTY);
  if (fd < 0) return; /* keep whatever the kernel gave us */
  for (int i = 0; i < 3; i++)
    if (fd != i) dup2(fd, i);
  if (fd > 2) close(fd);
}

int main(int argc, char **argv) {
  (void)argc;
  /* Run by mistake on a live system, this would mount over and delete things: refuse outright. */
  if (getpid() != 1) {
    fprintf(stderr, "%s: only runs as PID 1 of an initramfs\n", argv[0]);
    return 1;
  }

  /* /dev first: /dev/kmsg lives there, so this mount cannot be logged before it happens. */
  mount_pseudo("/dev", "devtmpfs", MS_NOSUID, "mode=0755");
  open_log();
  logmsg(6, "stage 1 started");
  mount_pseudo("/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
  mount_pseudo("/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
  logmsg(6, "mounted /dev, /proc, /sys");

  if (mkdir(NEWROOT, 0755) != 0 && errno != EEXIST) fail("mkdir", NEWROOT);
  char dev[32];
  int loop = attach_loop(ROOTFS, dev, sizeof dev);
  logmsg(6, "attached " ROOTFS " to %s (read-only, autoclear)", dev);
  if (mount(dev, NEWROOT, "squashfs", MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) fail("mount", dev);
  close(loop); /* the mount now holds the device; AUTOCLEAR detaches it when that ends */
  logmsg(6, "mounted %s (squashfs) read-only at " NEWROOT, dev);

  check_init();
  switch_root();

  console_fds();
  read_init_ahead();
  // Node reads its flags from here (a single executable takes none on its command line): one V8 worker
  // thread instead of one per core (threads 11 -> 8, ~1.5 MiB less idle memory; a 2 MiB young generation
  // saved more but slowed the start by ~2 s under TCG). --use-openssl-ca: TLS trusts the system's CA
  // store (/etc/ssl, looked up per certificate) instead of parsing Node's ~140 bundled roots into every
  // context made without a CA, as the maintenance API's server-only TLS is: 28 ms natively, over a second
  // under TCG. Machined's own TLS clients name their CA. Only flags Node allows in NODE_OPTIONS may go
  // here: any other makes Node refuse to start, and PID 1 with it.
  static char *env[] = {"NODE_OPTIONS=--v8-pool-size=1 --use-openssl-ca", "PATH=/usr/bin:/usr/sbin:/bin:/sbin",
                        "HOME=/", "TERM=linux", NULL, NULL, NULL};
  // the image's prefault.so (src/init/prefault.c) populates machined's heap as it grows, which the glibc
  // tunable makes 4 MiB at a time; a root without it boots the same, only without either (and without
  // ld.so complaining about a missing preload)
  if (access(PREFAULT, R_OK) == 0) {
    env[4] = "LD_PRELOAD=" PREFAULT;
    env[5] = "GLIBC_TUNABLES=glibc.malloc.top_pad=4194304";
  }
  static char *const args[] = {INIT, NULL};
  logmsg(6, "exec " INIT);
  execve(INIT, args, env);
  fail("execve", INIT);
}
