// The command line that runs an executable as PID 1 of a new PID and mount namespace, as a kernel runs
// init: for the single executable's own tests and its start trace, which need machined's PID 1 path
// without a VM. The host's cgroup hierarchy would be shared with the namespace, so an empty private tmpfs
// (named `label`) stands in for it, and the system cgroup tree machined creates goes with the namespace.

/** pid1Command returns [command, ...args]; SIGKILL to the command ends the namespace and all inside it. */
export function pid1Command(exe: string, label: string): string[] {
  return [
    'unshare',
    '--pid',
    '--fork',
    '--mount',
    '--mount-proc',
    '--kill-child=SIGKILL',
    'sh',
    '-c',
    `mount -t tmpfs -o mode=755 ${label} /sys/fs/cgroup && : > /sys/fs/cgroup/cgroup.controllers && exec "$0"`,
    exe,
  ];
}
