// What the system-information handlers read from: the kernel's file systems, and where they are mounted.
import type { DependencyGraph } from '../../cosi/controller/dependency.js';
import type { ProcfsOptions } from '../../sys/procfs/readers.js';

export interface SystemInfoDeps {
  /** procfs and sysfs mount points; default /proc and /sys */
  readonly procfs?: ProcfsOptions;
  /** default /dev/kmsg */
  readonly kmsgPath?: string;
  /** how often a following Dmesg looks for new records once caught up; default 200 ms */
  readonly dmesgPollMs?: number;
  /** the controller runtime's graph (Runtime.dependencyGraph); without it InspectService stays unimplemented */
  readonly dependencyGraph?: () => DependencyGraph;
  /**
   * files whose content is the node's own rather than the kernel's, by absolute path: a container-mode node
   * shares the host's kernel but has a boot of its own, and talosctl reads the boot id from its file to see
   * that a reboot happened
   */
  readonly nodeFiles?: ReadonlyMap<string, () => string>;
}
