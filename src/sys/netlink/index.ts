// src/sys/netlink: rtnetlink for the network controllers. A pure codec (messages, attributes, links,
// addresses, routes), a NETLINK_ROUTE socket woken by the FdPoller (requests, dumps, event
// subscriptions), and a small typed layer over it (Rtnetlink: links, addresses, routes).
export * from './address.js';
export * from './attr.js';
export * from './constants.js';
export * from './event.js';
export * from './ip.js';
export * from './link.js';
export * from './message.js';
export * from './route.js';
export * from './rtnetlink.js';
export * from './socket.js';
