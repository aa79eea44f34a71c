// src/sys/fs: file-system mechanisms the machine API needs: walking trees, tar.gz archives, disk usage,
// chunked reads, directories with their mode and owner, statfs sizes, Go-style file modes and the /dev/kmsg stream.
export * from './atomic-write.js';
export * from './disk-usage.js';
export * from './ensure-directory.js';
export * from './errors.js';
export * from './file-mode.js';
export * from './file-tar-gz.js';
export * from './kmsg-stream.js';
export * from './read-chunks.js';
export * from './statfs.js';
export * from './tar.js';
export * from './tar-gz.js';
export * from './walk.js';
