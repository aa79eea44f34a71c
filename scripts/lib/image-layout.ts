// Where the node image puts what the build makes: shared by the executable's build and the root filesystem's.

/** koffi's native addon; the single executable loads it from here (KEEL_KOFFI_NODE overrides it in tests) */
export const KOFFI_NODE_PATH = '/usr/lib/keel/koffi.node';

/** the heap-populating preload stage 1 hands machined (src/init/prefault.c); the path is fixed in stage1.c */
export const PREFAULT_PATH = '/usr/lib/keel/prefault.so';

/** which parts of /sbin/init stage 1 reads ahead (scripts/rootfs/read-ahead.ts); the path is fixed in stage1.c */
export const READ_AHEAD_PLAN_PATH = '/usr/lib/keel/init.read-ahead';
