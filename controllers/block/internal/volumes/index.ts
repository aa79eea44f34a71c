// controllers/block/internal/volumes: the volume manager's phase decisions (pure) and its disk work
// (partitioning under the whole-disk lock, growing, formatting).
export * from './disk-io.js';
export * from './plan.js';
