// Owned state: reads pass through; every write is stamped with one owner (the controller's name).
import type { Kind, Owner, Pointer } from '../resource/kind.js';
import type { Phase } from '../resource/phase.js';
import type { Resource } from '../resource/resource.js';
import type { GetOptions, ListOptions, SignalOptions } from './core.js';
import type { State, TeardownScope, UpdateFn } from './state.js';

export interface OwnedCreateOptions extends SignalOptions {
  /** create a user-owned resource instead */
  noOwner?: boolean;
}

export interface OwnedModifyOptions extends SignalOptions {
  /** the phase the existing resource must be in; default 'running'; 'any' skips the check */
  expectedPhase?: Phase | 'any';
  /** create or update the resource as user-owned */
  noOwner?: boolean;
}

export interface OwnedDeleteOptions extends SignalOptions {
  /** act on a resource owned by someone else; '' is the user */
  owner?: Owner;
}

/** OwnedReader is the read side of State, unchanged. */
export interface OwnedReader {
  get(ptr: Pointer, opts?: GetOptions): Promise<Resource>;
  list(kind: Kind, opts?: ListOptions): Promise<Resource[]>;
  teardownScope(ptr: Pointer, opts?: SignalOptions): Promise<TeardownScope>;
}

/** OwnedWriter writes as one owner, so the state's owner checks confine it to what it created. */
export interface OwnedWriter {
  create(r: Resource, opts?: OwnedCreateOptions): Promise<void>;
  /** update expects the resource to be running. */
  update(r: Resource, opts?: SignalOptions): Promise<void>;
  modify<R extends Resource>(empty: R, fn: UpdateFn<R>, opts?: OwnedModifyOptions): Promise<void>;
  modifyWithResult<R extends Resource>(empty: R, fn: UpdateFn<R>, opts?: OwnedModifyOptions): Promise<R>;
  teardown(ptr: Pointer, opts?: OwnedDeleteOptions): Promise<boolean>;
  destroy(ptr: Pointer, opts?: OwnedDeleteOptions): Promise<void>;
  /** finalizers belong to whoever depends on the resource, not to its owner: no stamping */
  addFinalizer(ptr: Pointer, fins: string | readonly string[], opts?: SignalOptions): Promise<void>;
  removeFinalizer(ptr: Pointer, fins: string | readonly string[], opts?: SignalOptions): Promise<void>;
}

export interface OwnedState extends OwnedReader, OwnedWriter {
  readonly owner: Owner;
}

/** ownedState wraps a State so that every write acts as `owner` unless an option says otherwise. */
export function ownedState(state: State, owner: Owner): OwnedState {
  const modifyOpts = (opts: OwnedModifyOptions = {}) => ({
    owner: opts.noOwner ? '' : owner,
    expectedPhase: opts.expectedPhase ?? 'running',
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const deleteOpts = (opts: OwnedDeleteOptions = {}) => ({
    owner: opts.owner ?? owner,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return {
    owner,
    get: (ptr, opts) => state.get(ptr, opts),
    list: (kind, opts) => state.list(kind, opts),
    teardownScope: (ptr, opts) => state.teardownScope(ptr, opts),
    create: (r, opts = {}) => state.create(r, { owner: opts.noOwner ? '' : owner, ...sig(opts) }),
    update: (r, opts = {}) => state.update(r, { owner, expectedPhase: 'running', ...sig(opts) }),
    modify: (empty, fn, opts) => state.modify(empty, fn, modifyOpts(opts)),
    modifyWithResult: (empty, fn, opts) => state.modifyWithResult(empty, fn, modifyOpts(opts)),
    teardown: (ptr, opts) => state.teardown(ptr, deleteOpts(opts)),
    destroy: (ptr, opts) => state.destroy(ptr, deleteOpts(opts)),
    addFinalizer: (ptr, fins, opts) => state.addFinalizer(ptr, fins, opts),
    removeFinalizer: (ptr, fins, opts) => state.removeFinalizer(ptr, fins, opts),
  };
}

const sig = (opts: SignalOptions) => (opts.signal ? { signal: opts.signal } : {});
