// src/sys/dhcp4: a DHCPv4 client (RFC 2131) on an AF_PACKET socket, so it works before the link has an address.
// The codec is pure; the state machine takes its clock and its link as interfaces; startDhcp4 wires them.

export * from './client.js';
export * from './lease.js';
export * from './machine.js';
export * from './message.js';
export * from './options.js';
export * from './packet.js';
export * from './transport.js';
