// src/sys/block/uevent: hotplug from the kernel. A pure parser of its uevent datagrams, and a
// NETLINK_KOBJECT_UEVENT subscription woken by the FdPoller, with a 'resync' event when any were lost.
export * from './errors.js';
export * from './message.js';
export * from './socket.js';
