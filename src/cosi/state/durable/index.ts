// Durable backing stores: resources that survive restarts and crashes, for the in-memory state to write through.
// A directory holds checksummed log frames (group-committed, synced before a write resolves) and atomic snapshots.
export { type DurableErrorCode, DurableStoreError, isDurableStoreError } from './errors.js';
export {
  type DurableNamespaces,
  type DurableNamespacesOptions,
  durableNamespaces,
  namespaceDir,
} from './namespaces.js';
export {
  DEFAULT_COMPACT_EVERY,
  type DurableStore,
  type DurableStoreInfo,
  type DurableStoreOptions,
  newDurableStore,
} from './store.js';
