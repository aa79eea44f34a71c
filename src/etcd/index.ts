// src/etcd: a small etcd v3 client for machined and the API (keys, members, maintenance, snapshots).
export * from './client.js';
export * from './errors.js';
export * from './schema.js';
