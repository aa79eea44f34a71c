// src/sys/procfs: what the kernel shows in /proc and /sys, parsed into typed values.
// Pure parsers (one file per kernel file) are separate from readers.ts, the only part that does I/O.
export * from './block.js';
export * from './cpuinfo.js';
export * from './errors.js';
export * from './loadavg.js';
export * from './meminfo.js';
export * from './mounts.js';
export * from './process.js';
export * from './readers.js';
export * from './stat.js';
