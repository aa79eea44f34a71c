// machined/node: a whole node around machined, as PID 1 or as an ordinary process (container mode).
export * from './api-identity.js';
export * from './apid-service.js';
export * from './client-issuer.js';
export * from './config-host.js';
export * from './config-store.js';
export * from './host-identity.js';
export * from './start-node.js';
