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
}

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
  },
  arm64: {
    sys: { reboot: 142, finit_module: 273, ...NEW_MOUNT_API },
    epollEvent: { size: 16, dataOffset: 8 },
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
