// The per-architecture facts raw calls depend on: syscall numbers glibc does not wrap and the few struct
// layouts that differ between ABIs. Everything else in src/sys uses fixed-width types that do not.
// A new architecture is one more entry here; an unknown one fails at load, not with a wrong call.

export interface ArchTable {
  /** numbers for syscall(2) */
  readonly sys: {
    readonly reboot: number;
    readonly finit_module: number;
    readonly open_tree: number;
    readonly move_mount: number;
    readonly fsopen: number;
    readonly fsconfig: number;
    readonly fsmount: number;
    readonly fspick: number;
  };
  /** struct epoll_event: x86_64 packs it (u32 events, then u64 data at offset 4); other ABIs align data */
  readonly epollEvent: { readonly size: number; readonly dataOffset: number };
  /** struct timex of adjtimex(2): byte offsets of the fields Keel reads or writes, and the width of its longs */
  readonly timex: TimexLayout;
}

export interface TimexLayout {
  readonly size: number;
  /** sizeof(long): offset, freq, the errors, constant, precision, tolerance, tick and both timeval halves */
  readonly long: 4 | 8;
  readonly modes: number;
  readonly offset: number;
  readonly freq: number;
  readonly maxerror: number;
  readonly esterror: number;
  readonly status: number;
  readonly constant: number;
  readonly precision: number;
  readonly tolerance: number;
  readonly timeSec: number;
  readonly timeUsec: number;
  readonly tick: number;
  readonly tai: number;
}

// x86_64 and arm64 are both LP64, so their struct timex agree field for field (the kernel's uapi header uses
// __kernel_long_t); a 32-bit ABI (ILP32, or arm's 64-bit time_t variant) would need its own entry
const TIMEX_LP64: TimexLayout = {
  size: 208,
  long: 8,
  modes: 0,
  offset: 8,
  freq: 16,
  maxerror: 24,
  esterror: 32,
  status: 40,
  constant: 48,
  precision: 56,
  tolerance: 64,
  timeSec: 72,
  timeUsec: 80,
  tick: 88,
  tai: 160,
};

// the new mount API's numbers are the same on every architecture (allocated after the tables were unified)
const NEW_MOUNT_API = {
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
} as const;

const TABLES: Readonly<Record<string, ArchTable>> = {
  x64: {
    sys: { reboot: 169, finit_module: 313, ...NEW_MOUNT_API },
    epollEvent: { size: 12, dataOffset: 4 },
    timex: TIMEX_LP64,
  },
  arm64: {
    sys: { reboot: 142, finit_module: 273, ...NEW_MOUNT_API },
    epollEvent: { size: 16, dataOffset: 8 },
    timex: TIMEX_LP64,
  },
};

/** archTable is the table for a Node architecture name ('x64', 'arm64'); unknown ones throw. */
export function archTable(arch: string): ArchTable {
  const t = TABLES[arch];
  if (!t)
    throw new Error(
      `src/sys has no syscall table for architecture ${arch} (known: ${Object.keys(TABLES).join(', ')})`,
    );
  return t;
}

/** ARCH is this process's table. */
export const ARCH: ArchTable = archTable(process.arch);
