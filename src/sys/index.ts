// src/sys: thin, typed OS bindings — one file per syscall family, errno turned into SysError.
// No policy lives here: only mechanisms that machined and the controllers compose.
export * from './arch.js';
export * from './capabilities.js';
export * from './chroot.js';
export * from './credentials.js';
export * from './errno.js';
export * from './exec.js';
export * from './fcntl.js';
export * from './flock.js';
export * from './hostname.js';
export * from './ioctl-loop.js';
export * from './kmsg.js';
export * from './memory.js';
export * from './module.js';
export * from './mount.js';
export * from './mountinfo.js';
export * from './namespace.js';
export * from './netlink/index.js';
export * from './poller.js';
export * from './prctl.js';
export * from './reboot.js';
export * from './rlimit.js';
export * from './socket.js';
export * from './sync.js';
export * from './wait.js';
export * from './xattr.js';
