// src/sys/block/gpt: GUID partition tables: the on-disk codec (CRC32, GUIDs, protective MBR, headers, entries),
// a pure table model (create, add, delete, grow, resize), and reading and writing one on a descriptor.
export * from './crc32.js';
export * from './decode.js';
export * from './device.js';
export * from './encode.js';
export * from './entry.js';
export * from './errors.js';
export * from './extents.js';
export * from './guid.js';
export * from './header.js';
export * from './ioctl.js';
export * from './kernel-sync.js';
export * from './label-guid.js';
export * from './mbr.js';
export * from './size-text.js';
export * from './table.js';
export * from './types.js';
export * from './validate.js';
