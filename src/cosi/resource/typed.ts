// Typed resources: a spec type plus its definition, declared once with defineResource.
import { cloneData, equalData } from './data.js';
import { fillDefinition, type ResourceDefinitionInput, type ResourceDefinitionSpec } from './definition.js';
import type { ID, Namespace, Pointer } from './kind.js';
import { Metadata } from './metadata.js';
import type { ProtoSchema } from './proto-schema.js';
import type { Resource } from './resource.js';

/** How a spec type is built, copied, compared and encoded. */
export interface SpecCodec<S> {
  /** a fresh zero spec */
  empty(): S;
  copy(s: S): S;
  equal(a: S, b: S): boolean;
  /** protobuf schema; without one, proto_spec is empty and only yaml_spec travels */
  proto?: ProtoSchema;
  /** toProto gives the plain object `proto` describes, when it differs from the spec; default: the spec itself */
  toProto?(s: S): unknown;
  /** fromProto rebuilds a spec from the object decoded by `proto`; default: the decoded object */
  fromProto?(v: Record<string, unknown>): S;
  /** toYAML gives the plain value rendered as yaml_spec (key order matters); default: the spec itself */
  toYAML?(s: S): unknown;
  /** fromYAML rebuilds a spec from parsed yaml_spec; default: a copy of the parsed value */
  fromYAML?(v: unknown): S;
}

export interface ResourceTypeInput<S> extends ResourceDefinitionInput {
  readonly empty: () => S;
  readonly copy?: (s: S) => S;
  readonly equal?: (a: S, b: S) => boolean;
  readonly proto?: ProtoSchema;
  readonly toProto?: (s: S) => unknown;
  readonly fromProto?: (v: Record<string, unknown>) => S;
  readonly toYAML?: (s: S) => unknown;
  readonly fromYAML?: (v: unknown) => S;
}

/** ResourceType is the handle for one resource type: its definition, codec and constructors. */
export interface ResourceType<S> {
  readonly type: string;
  readonly defaultNamespace: Namespace;
  readonly definition: ResourceDefinitionSpec;
  readonly codec: SpecCodec<S>;
  /** new builds a resource with undefined version and, unless given, the zero spec. */
  'new'(namespace: Namespace, id: ID, spec?: S): TypedResource<S>;
  /** fromMetadata wraps existing metadata (used by decoders). */
  fromMetadata(md: Metadata, spec: S): TypedResource<S>;
  pointer(id: ID, namespace?: Namespace): Pointer;
  is(r: Resource): r is TypedResource<S>;
}

/** TypedResource is a resource whose spec type is known. */
export class TypedResource<S> implements Resource<S> {
  constructor(
    readonly rtype: ResourceType<S>,
    readonly metadata: Metadata,
    public spec: S,
  ) {}

  deepCopy(): TypedResource<S> {
    return new TypedResource(this.rtype, this.metadata.copy(), this.rtype.codec.copy(this.spec));
  }

  equalSpec(other: Resource): boolean {
    return (
      other instanceof TypedResource &&
      other.rtype === this.rtype &&
      this.rtype.codec.equal(this.spec, other.spec)
    );
  }
}

export type ResourceOf<T> = T extends ResourceType<infer S> ? TypedResource<S> : never;
export type SpecOf<T> = T extends ResourceType<infer S> ? S : never;

/** defineResource validates the definition at once, so a bad type name fails at startup. */
export function defineResource<S>(input: ResourceTypeInput<S>): ResourceType<S> {
  const definition = fillDefinition(input);
  const codec: SpecCodec<S> = {
    empty: input.empty,
    copy: input.copy ?? cloneData,
    equal: input.equal ?? equalData,
    ...(input.proto ? { proto: input.proto } : {}),
    ...(input.toProto ? { toProto: input.toProto } : {}),
    ...(input.fromProto ? { fromProto: input.fromProto } : {}),
    ...(input.toYAML ? { toYAML: input.toYAML } : {}),
    ...(input.fromYAML ? { fromYAML: input.fromYAML } : {}),
  };
  const rt: ResourceType<S> = {
    type: input.type,
    defaultNamespace: input.defaultNamespace,
    definition,
    codec,
    new: (namespace, id, spec) =>
      new TypedResource(rt, new Metadata(namespace, input.type, id), spec ?? input.empty()),
    fromMetadata: (md, spec) => new TypedResource(rt, md, spec),
    pointer: (id, namespace = input.defaultNamespace) => ({ namespace, type: input.type, id }),
    is: (r): r is TypedResource<S> => r instanceof TypedResource && r.rtype === rt,
  };
  return rt;
}
