// src/sys/loadbalancer: a TCP load balancer as go-loadbalancer makes one (KubePrism's mechanism): the
// listener and proxy, TCP connect health checks, and the pure policy that scores and picks upstreams.
export * from './address.js';
export * from './dial.js';
export * from './errors.js';
export * from './health-probe.js';
export * from './tcp-balancer.js';
export * from './upstream-list.js';
