// src/sys/block/devices: block devices as sysfs shows them (typed records, a generation counter to fold
// uevents into) and the mechanisms on an open one: ioctls, the whole-disk lock, the fast wipe.
export * from './device.js';
export * from './errors.js';
export * from './generation.js';
export * from './ioctl.js';
export * from './lock.js';
export * from './open.js';
export * from './properties.js';
export * from './sysfs.js';
export * from './whole-disk.js';
export * from './wipe.js';
