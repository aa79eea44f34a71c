// CoreState: the eight verbs every backend implements (in-memory, durable, namespaced, remote over gRPC).
import type { IDQuery } from '../resource/id-query.js';
import type { Kind, Owner, Pointer } from '../resource/kind.js';
import type { LabelQuery } from '../resource/label-query.js';
import type { Phase } from '../resource/phase.js';
import type { Resource } from '../resource/resource.js';
import type { Bookmark, StateEvent, WatchStream } from './events.js';

export interface SignalOptions {
  signal?: AbortSignal;
}

export interface UnmarshalOptions {
  /** remote states: keep specs as opaque proto/yaml instead of decoding registered types */
  skipProtobufUnmarshal?: boolean;
}

export interface GetOptions extends SignalOptions, UnmarshalOptions {}

export interface ListOptions extends SignalOptions, UnmarshalOptions {
  /** OR-ed label queries; none matches everything */
  labelQueries?: readonly LabelQuery[];
  idQuery?: IDQuery;
}

export interface CreateOptions extends SignalOptions {
  owner?: Owner;
}

export interface UpdateOptions extends SignalOptions {
  owner?: Owner;
  /** the phase the stored resource must be in; default 'running'; 'any' skips the check */
  expectedPhase?: Phase | 'any';
}

export interface DestroyOptions extends SignalOptions {
  owner?: Owner;
}

export interface TeardownOptions extends SignalOptions {
  owner?: Owner;
}

export interface WatchOptions extends SignalOptions, UnmarshalOptions {
  /** resume after this event; excludes tailEvents */
  startFromBookmark?: Bookmark;
  /** instead of the current state, replay up to n past events of this resource */
  tailEvents?: number;
}

export interface WatchKindOptions extends WatchOptions {
  labelQueries?: readonly LabelQuery[];
  idQuery?: IDQuery;
  /** first a `created` per matching resource (sorted by id), then one `bootstrapped` */
  bootstrapContents?: boolean;
  /** first a `noop` carrying the current bookmark */
  bootstrapBookmark?: boolean;
}

/**
 * CoreState is the backend contract. Reads return deep copies; create/update store a copy and
 * write the assigned metadata (version, owner, timestamps) back into the caller's resource.
 * Watches resolve once established: no event after that point is missed.
 */
export interface CoreState {
  get(ptr: Pointer, opts?: GetOptions): Promise<Resource>;
  /** sorted by id */
  list(kind: Kind, opts?: ListOptions): Promise<Resource[]>;
  create(r: Resource, opts?: CreateOptions): Promise<void>;
  /** optimistic: r.metadata.version must equal the stored version */
  update(r: Resource, opts?: UpdateOptions): Promise<void>;
  destroy(ptr: Pointer, opts?: DestroyOptions): Promise<void>;
  watch(ptr: Pointer, opts?: WatchOptions): Promise<WatchStream<StateEvent>>;
  watchKind(kind: Kind, opts?: WatchKindOptions): Promise<WatchStream<StateEvent>>;
  /** as watchKind, but everything pending at each wake-up arrives as one batch */
  watchKindAggregated(kind: Kind, opts?: WatchKindOptions): Promise<WatchStream<StateEvent[]>>;
  /** optional native teardown (remote states); returns destroy-ready */
  teardown?(ptr: Pointer, opts?: TeardownOptions): Promise<boolean>;
  /** optional native teardown-and-destroy (remote states) */
  teardownAndDestroy?(ptr: Pointer, opts?: TeardownOptions): Promise<void>;
}
