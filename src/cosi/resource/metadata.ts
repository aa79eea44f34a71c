// Metadata: identity, version, owner, phase, labels, annotations, finalizers and timestamps.
import { Finalizers } from './finalizers.js';
import type { ID, Namespace, Owner, Reference, Type } from './kind.js';
import { Annotations } from './kv.js';
import { Labels } from './labels.js';
import type { Phase } from './phase.js';
import { type Version, versionString } from './version.js';

/** OwnerError is thrown by setOwner when another owner is already recorded. */
export class OwnerError extends Error {
  constructor(readonly current: Owner) {
    super(`owner is already set to ${JSON.stringify(current)}`);
    this.name = 'OwnerError';
  }
}

export interface MetadataInit {
  version?: Version;
  owner?: Owner;
  phase?: Phase;
  /** milliseconds since the epoch */
  created?: number;
  updated?: number;
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  finalizers?: readonly string[];
}

/**
 * Metadata is a resource's header. Copies are cheap: labels, annotations and finalizers are
 * copy-on-write, so `copy()` shares their storage until either side edits.
 */
export class Metadata implements Reference {
  namespace: Namespace;
  type: Type;
  id: ID;
  version: Version;
  owner: Owner;
  phase: Phase;
  /** creation time, ms since the epoch */
  created: number;
  /** last update time, ms since the epoch */
  updated: number;
  labels: Labels;
  annotations: Annotations;
  finalizers: Finalizers;

  constructor(namespace: Namespace, type: Type, id: ID, init: MetadataInit = {}) {
    this.namespace = namespace;
    this.type = type;
    this.id = id;
    this.version = init.version;
    this.owner = init.owner ?? '';
    this.phase = init.phase ?? 'running';
    const now = Date.now();
    this.created = init.created ?? now;
    this.updated = init.updated ?? this.created;
    this.labels = new Labels(init.labels);
    this.annotations = new Annotations(init.annotations);
    this.finalizers = new Finalizers(init.finalizers);
  }

  /** setOwner records the owner once; setting the same owner again is fine. */
  setOwner(owner: Owner): void {
    if (this.owner === '' || this.owner === owner) {
      this.owner = owner;
      return;
    }
    throw new OwnerError(this.owner);
  }

  copy(): Metadata {
    const c = new Metadata(this.namespace, this.type, this.id, {
      version: this.version,
      owner: this.owner,
      phase: this.phase,
      created: this.created,
      updated: this.updated,
    });
    c.labels = this.labels.copy();
    c.annotations = this.annotations.copy();
    c.finalizers = this.finalizers.copy();
    return c;
  }

  /** equal compares everything but the timestamps; finalizers compare as sets. */
  equal(o: Metadata): boolean {
    return (
      this.namespace === o.namespace &&
      this.type === o.type &&
      this.id === o.id &&
      this.phase === o.phase &&
      this.owner === o.owner &&
      this.version === o.version &&
      this.finalizers.equal(o.finalizers) &&
      this.labels.equal(o.labels) &&
      this.annotations.equal(o.annotations)
    );
  }

  /** toString renders `Type(ns/id@version)`. */
  toString(): string {
    return `${this.type}(${this.namespace}/${this.id}@${versionString(this.version)})`;
  }
}

/** kindMetadata builds the metadata of a kind (empty id), as Go's NewMetadata(ns, typ, "", undefined). */
export const kindMetadata = (namespace: Namespace, type: Type): Metadata => new Metadata(namespace, type, '');
