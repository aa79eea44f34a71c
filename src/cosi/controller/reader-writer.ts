// What a controller sees of the state: typed reads (cached where configured) and owner-stamped writes.
import type { IDQuery } from '../resource/id-query.js';
import type { ID, Kind, Namespace, Owner, Pointer, Type } from '../resource/kind.js';
import type { LabelQuery } from '../resource/label-query.js';
import type { Metadata } from '../resource/metadata.js';
import type { Phase } from '../resource/phase.js';
import type { Resource } from '../resource/resource.js';
import type { ResourceType, TypedResource } from '../resource/typed.js';
import type { TeardownScope } from '../state/state.js';

/** KindLike is a Kind or a resource type handle (whose default namespace is used). */
export type KindLike = Kind | { readonly type: Type; readonly defaultNamespace: Namespace };

/** kindOf resolves a KindLike, letting `namespace` override a type's default namespace. */
export const kindOf = (k: KindLike, namespace?: Namespace): Kind =>
  'namespace' in k
    ? { namespace: namespace ?? k.namespace, type: k.type }
    : { namespace: namespace ?? k.defaultNamespace, type: k.type };

/** Every operation takes a signal; without one, the controller's own run signal applies. */
export interface SignalOptions {
  signal?: AbortSignal;
}

export interface ReadOptions extends SignalOptions {
  /** default: the type's default namespace */
  namespace?: Namespace;
}

export interface ListOptions extends ReadOptions {
  /** OR-ed label queries; none matches everything */
  labelQueries?: readonly LabelQuery[];
  idQuery?: IDQuery;
}

export interface Reader {
  /** get throws a not-found StateError when absent and a type-mismatch ControllerError on a foreign type. */
  get<S>(type: ResourceType<S>, id: ID, opts?: ReadOptions): Promise<TypedResource<S>>;
  /** getOrNull is get with absence as a value. */
  getOrNull<S>(type: ResourceType<S>, id: ID, opts?: ReadOptions): Promise<TypedResource<S> | null>;
  /** list is sorted by id. */
  list<S>(type: ResourceType<S>, opts?: ListOptions): Promise<TypedResource<S>[]>;
  /** teardownScope gives a signal aborted when the resource starts tearing down or disappears. */
  teardownScope(ptr: Pointer, opts?: SignalOptions): Promise<TeardownScope>;
}

/** UncachedReader always asks the state, for decisions that cannot wait for the cache to catch up. */
export interface UncachedReader {
  getUncached<S>(type: ResourceType<S>, id: ID, opts?: ReadOptions): Promise<TypedResource<S>>;
  getOrNullUncached<S>(type: ResourceType<S>, id: ID, opts?: ReadOptions): Promise<TypedResource<S> | null>;
  listUncached<S>(type: ResourceType<S>, opts?: ListOptions): Promise<TypedResource<S>[]>;
}

export interface CreateOptions extends SignalOptions {
  /** create a user-owned resource (no owner) */
  noOwner?: boolean;
}

export interface ModifyOptions extends ReadOptions {
  /** the phase the existing resource must be in; default 'running'; 'any' skips the check */
  expectedPhase?: Phase | 'any';
  /** create or update the resource as user-owned */
  noOwner?: boolean;
}

export interface DeleteOptions extends SignalOptions {
  /** act on a resource owned by someone else (cleanup controllers); '' means user-owned */
  owner?: Owner;
}

/**
 * ModifyFn edits a private copy: mutate `spec` (and `md` labels/annotations) in place, or return
 * a replacement spec; `r` is the whole copy. Changing nothing writes nothing.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: in-place editors return nothing
export type ModifyFn<S> = (spec: S, md: Metadata, r: TypedResource<S>) => S | void | Promise<S | void>;

export interface Writer {
  /** create stamps this controller as owner (unless noOwner). */
  create(r: Resource, opts?: CreateOptions): Promise<void>;
  /** update is optimistic (r carries the version it was read at) and needs r to be running. */
  update(r: Resource, opts?: SignalOptions): Promise<void>;
  /** modify creates the resource after fn when absent, otherwise updates it unless fn changed nothing. */
  modify<S>(type: ResourceType<S>, id: ID, fn: ModifyFn<S>, opts?: ModifyOptions): Promise<void>;
  /** modifyWithResult is modify returning the stored resource. */
  modifyWithResult<S>(
    type: ResourceType<S>,
    id: ID,
    fn: ModifyFn<S>,
    opts?: ModifyOptions,
  ): Promise<TypedResource<S>>;
  /** teardown moves the resource to tearingDown and says whether it is destroy-ready. */
  teardown(ptr: Pointer, opts?: DeleteOptions): Promise<boolean>;
  destroy(ptr: Pointer, opts?: DeleteOptions): Promise<void>;
  /** addFinalizer needs a strong (or q-primary/q-mapped) input covering ptr. */
  addFinalizer(ptr: Pointer, fins: string | readonly string[], opts?: SignalOptions): Promise<void>;
  /** removeFinalizer treats an already-destroyed resource as success. */
  removeFinalizer(ptr: Pointer, fins: string | readonly string[], opts?: SignalOptions): Promise<void>;
}

export interface ReaderWriter extends Reader, UncachedReader, Writer {}
