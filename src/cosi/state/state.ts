// State: CoreState plus the operations derived from it (see wrap.ts for how they are derived).
import type { Pointer } from '../resource/kind.js';
import type { Phase } from '../resource/phase.js';
import type { Resource } from '../resource/resource.js';
import type { CoreState, CreateOptions, SignalOptions, TeardownOptions, UpdateOptions } from './core.js';
import type { EventType } from './events.js';

/** UpdateFn edits a private copy in place; throwing aborts the update. */
export type UpdateFn<R extends Resource = Resource> = (r: R) => void | Promise<void>;

export interface ModifyOptions extends UpdateOptions, CreateOptions {}

export interface WatchForOptions extends SignalOptions {
  /** match only these event types */
  eventTypes?: readonly EventType[];
  /** match when the predicate holds for the resource */
  condition?: (r: Resource) => boolean | Promise<boolean>;
  /** match when finalizers are empty (a destroyed event never matches) */
  finalizersEmpty?: boolean;
  /** match only in these phases */
  phases?: readonly Phase[];
}

/** TeardownScope is a signal aborted when the resource enters tearingDown, disappears, or its watch fails. */
export interface TeardownScope {
  readonly signal: AbortSignal;
  close(): void;
}

export interface State extends CoreState {
  /**
   * updateWithConflicts retries get → copy → fn → update on version conflicts; when fn changes
   * nothing it writes nothing (no version bump, no event) and returns the current resource.
   */
  updateWithConflicts<R extends Resource>(ptr: Pointer, fn: UpdateFn<R>, opts?: UpdateOptions): Promise<R>;
  /** modify creates `empty` after fn when absent, otherwise updateWithConflicts. */
  modify<R extends Resource>(empty: R, fn: UpdateFn<R>, opts?: ModifyOptions): Promise<void>;
  modifyWithResult<R extends Resource>(empty: R, fn: UpdateFn<R>, opts?: ModifyOptions): Promise<R>;
  /** teardown moves the resource to tearingDown (idempotent) and says whether it is destroy-ready. */
  teardown(ptr: Pointer, opts?: TeardownOptions): Promise<boolean>;
  /** teardownAndDestroy tears down, waits for finalizers to clear, then destroys. */
  teardownAndDestroy(ptr: Pointer, opts?: TeardownOptions): Promise<void>;
  addFinalizer(ptr: Pointer, fins: string | readonly string[], opts?: SignalOptions): Promise<void>;
  removeFinalizer(ptr: Pointer, fins: string | readonly string[], opts?: SignalOptions): Promise<void>;
  /** watchFor resolves with the first resource state matching every given condition. */
  watchFor(ptr: Pointer, opts: WatchForOptions): Promise<Resource>;
  /** teardownScope is ContextWithTeardown: a signal tied to the resource leaving the running phase. */
  teardownScope(ptr: Pointer, opts?: SignalOptions): Promise<TeardownScope>;
}
