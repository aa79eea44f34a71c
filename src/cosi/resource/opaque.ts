// OpaqueResource: a resource whose type this process does not know; its spec stays as wire bytes and YAML.
import { Metadata } from './metadata.js';
import type { Resource } from './resource.js';

/** OpaqueSpec is the wire form of a spec: protobuf bytes and/or its YAML rendering. */
export interface OpaqueSpec {
  readonly protoSpec: Uint8Array;
  readonly yamlSpec: string;
}

/** OpaqueResource lets states and servers store and forward types they have no codec for. */
export class OpaqueResource implements Resource<OpaqueSpec> {
  constructor(
    readonly metadata: Metadata,
    readonly spec: OpaqueSpec,
  ) {}

  deepCopy(): OpaqueResource {
    return new OpaqueResource(this.metadata.copy(), {
      protoSpec: this.spec.protoSpec.slice(),
      yamlSpec: this.spec.yamlSpec,
    });
  }

  equalSpec(other: Resource): boolean {
    if (!(other instanceof OpaqueResource)) return false;
    const a = this.spec.protoSpec;
    const b = other.spec.protoSpec;
    if (a.length !== b.length || this.spec.yamlSpec !== other.spec.yamlSpec) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  static of(namespace: string, type: string, id: string, spec: OpaqueSpec): OpaqueResource {
    return new OpaqueResource(new Metadata(namespace, type, id), spec);
  }
}
