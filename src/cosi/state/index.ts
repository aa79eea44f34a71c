// cosi/state: the CoreState contract and its layers — in-memory backend, derived operations (wrapCore),
// namespaced routing, access filter, owned writer, and the crash-safe durable backing store.
export * from './backing-store.js';
export * from './core.js';
export * from './durable/index.js';
export * from './errors.js';
export * from './events.js';
export * from './filter.js';
export * from './inmem/index.js';
export * from './namespaced.js';
export * from './owned.js';
export * from './state.js';
export * from './wrap.js';
