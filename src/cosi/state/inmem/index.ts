// In-memory state: the reference CoreState, serving every namespace from memory with per-kind event history.
// Optionally loads from and writes through a BackingStore so chosen namespaces survive restarts.
export type { InmemOptions } from './options.js';
export { newInmemState } from './state.js';
