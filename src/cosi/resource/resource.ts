// The Resource contract: metadata plus an opaque spec, deep-copyable, with explicit spec equality.
import { type Pointer, pointerString } from './kind.js';
import { Metadata } from './metadata.js';

/** Resource is what states store and controllers exchange. */
export interface Resource<S = unknown> {
  readonly metadata: Metadata;
  /** the spec; reading it on a tombstone throws */
  readonly spec: S;
  deepCopy(): Resource<S>;
  /** equalSpec compares specs only (the runtime compares metadata separately). */
  equalSpec(other: Resource): boolean;
}

/** equal is metadata equality (timestamps ignored) and spec equality. */
export const equal = (a: Resource, b: Resource): boolean => a.metadata.equal(b.metadata) && a.equalSpec(b);

/** resourceString renders `Type(ns/id)`. */
export const resourceString = (r: Resource): string => pointerString(r.metadata);

/** Tombstone stands for an absent or deleted resource in events: metadata only. */
export class Tombstone implements Resource<never> {
  readonly metadata: Metadata;

  constructor(md: Metadata) {
    this.metadata = md;
  }

  static of(ptr: Pointer): Tombstone {
    return new Tombstone(new Metadata(ptr.namespace, ptr.type, ptr.id));
  }

  get spec(): never {
    throw new TypeError(`tombstone ${pointerString(this.metadata)} has no spec`);
  }

  deepCopy(): Tombstone {
    return new Tombstone(this.metadata.copy());
  }

  equalSpec(other: Resource): boolean {
    return other instanceof Tombstone;
  }
}

export const isTombstone = (r: Resource): r is Tombstone => r instanceof Tombstone;
