// Where the node image puts what the build makes: shared by the executable's build and the root filesystem's.

/** koffi's native addon; the single executable loads it from here (KEEL_KOFFI_NODE overrides it in tests) */
export const KOFFI_NODE_PATH = '/usr/lib/keel/koffi.node';
