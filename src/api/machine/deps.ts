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
}
