// BackingStore: where an in-memory state persists the namespaces that must survive a restart.
import type { Pointer } from '../resource/kind.js';
import type { Resource } from '../resource/resource.js';
import type { SignalOptions } from './core.js';

/**
 * The in-memory state loads a backing store once, before its first operation, and then writes
 * through it synchronously: a put or destroy resolves only when the change is durable, and a
 * failed write fails the state operation without changing memory.
 */
export interface BackingStore {
  /** load calls `handler` once per stored resource. */
  load(handler: (r: Resource) => void, opts?: SignalOptions): Promise<void>;
  put(r: Resource, opts?: SignalOptions): Promise<void>;
  destroy(ptr: Pointer, opts?: SignalOptions): Promise<void>;
  close?(): Promise<void>;
}
