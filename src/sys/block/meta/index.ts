// src/sys/block/meta: the META partition (Talos's ADV): the Talos and syslinux ADV codecs, the two-copy model,
// and reads and writes on a partition under upstream's locks.
export * from './adv.js';
export * from './device.js';
export * from './errors.js';
export * from './meta.js';
export * from './store.js';
export * from './syslinux.js';
export * from './tags.js';
