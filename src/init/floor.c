/*
 * Keel boot floor: the least an /init can do. The boot benchmark boots it to measure kernel start to
 * init, then power-off, with nothing of ours in between: the floor every real boot is compared to.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  /* No /dev/kmsg in an initramfs until devtmpfs is mounted (the kernel's own adds only /dev/console). */
  if (access("/dev/kmsg", W_OK) != 0) {
    mkdir("/dev", 0755);
    mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
  }
  static const char line[] = "<6>[keel] [floor] init reached\n";
  int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
  if (fd >= 0 && write(fd, line, sizeof line - 1) < 0) {
    /* nothing to report to: the power-off below still ends the benchmark */
  }
  reboot(RB_POWER_OFF);
  /* PID 1 must not exit (the kernel would panic), even if power-off is refused */
  for (;;) pause();
}
