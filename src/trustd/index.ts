// src/trustd: trustd's wire contract and its client — how a worker, holding only the machine token and
// the OS CA certificate, gets its apid certificate signed by a control plane (the server is src/api/trustd).
export * from './client.js';
export * from './endpoints.js';
export * from './errors.js';
export * from './retry.js';
export * from './schema.js';
export * from './token.js';
