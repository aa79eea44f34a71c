// Plain-object forms of the cosi.resource.State messages, as the proto loader yields and accepts them.
import type { ProtoResource } from '../resource/protobuf/resource.js';

// Every field is optional: unset fields are absent on decode, and peers may omit anything.
// Enums arrive as names, or as numbers when the value is unknown to this schema.

export type WireLabelOp =
  | 'EXISTS'
  | 'EQUAL'
  | 'NOT_EXISTS'
  | 'IN'
  | 'LT'
  | 'LTE'
  | 'LT_NUMERIC'
  | 'LTE_NUMERIC';

export interface WireLabelTerm {
  key?: string;
  op?: WireLabelOp | number;
  value?: string[];
  invert?: boolean;
}

export interface WireLabelQuery {
  terms?: WireLabelTerm[];
}

export interface WireIDQuery {
  regexp?: string;
}

export type WireEventType = 'CREATED' | 'UPDATED' | 'DESTROYED' | 'BOOTSTRAPPED' | 'ERRORED' | 'NOOP';

export interface WireEvent {
  resource?: ProtoResource;
  event_type?: WireEventType | number;
  old?: ProtoResource;
  error?: string;
  bookmark?: Uint8Array;
}

export interface GetRequest {
  namespace?: string;
  type?: string;
  id?: string;
  options?: Record<string, never>;
}

export interface GetResponse {
  resource?: ProtoResource;
}

export interface ListOptions {
  label_query?: WireLabelQuery[];
  id_query?: WireIDQuery;
}

export interface ListRequest {
  namespace?: string;
  type?: string;
  options?: ListOptions;
}

export interface ListResponse {
  resource?: ProtoResource;
}

export interface OwnerOptions {
  owner?: string;
}

export interface CreateRequest {
  resource?: ProtoResource;
  options?: OwnerOptions;
}

export interface CreateResponse {
  resource?: ProtoResource;
}

export interface UpdateOptions {
  owner?: string;
  /** absent: any phase */
  expected_phase?: string;
}

export interface UpdateRequest {
  new_resource?: ProtoResource;
  options?: UpdateOptions;
}

export interface UpdateResponse {
  resource?: ProtoResource;
}

/** The request shape shared by Destroy, Teardown and TeardownAndDestroy. */
export interface PointerRequest {
  namespace?: string;
  type?: string;
  id?: string;
  options?: OwnerOptions;
}

export type DestroyRequest = PointerRequest;
export type TeardownRequest = PointerRequest;
export type TeardownAndDestroyRequest = PointerRequest;

export type DestroyResponse = Record<string, never>;
export type TeardownAndDestroyResponse = Record<string, never>;

export interface TeardownResponse {
  destroy_ready?: boolean;
}

export interface WatchOptions {
  bootstrap_contents?: boolean;
  tail_events?: number;
  label_query?: WireLabelQuery[];
  id_query?: WireIDQuery;
  aggregated?: boolean;
  start_from_bookmark?: Uint8Array;
  bootstrap_bookmark?: boolean;
}

export interface WatchRequest {
  namespace?: string;
  type?: string;
  /** present: a single-resource watch (even when empty) */
  id?: string;
  options?: WatchOptions;
  api_version?: number;
}

export interface WatchResponse {
  event?: WireEvent[];
}
