// src/etcd: a small etcd v3 client for machined and the API (keys, members, maintenance, snapshots), and a
// mutex on leases as etcd's concurrency package has.
export * from './client.js';
export * from './errors.js';
export * from './keys.js';
export * from './mutex.js';
export * from './schema.js';
export * from './session.js';
export * from './wait-delete.js';
