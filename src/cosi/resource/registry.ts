// ResourceRegistry: resource types by type name, so decoders can rebuild typed resources.
import type { ResourceType } from './typed.js';

export class ResourceRegistry {
  readonly #types = new Map<string, ResourceType<unknown>>();

  /** register adds a type; registering a different handle under the same name is an error. */
  register<S>(rt: ResourceType<S>): void {
    const prev = this.#types.get(rt.type);
    if (prev && prev !== (rt as ResourceType<unknown>))
      throw new Error(`resource type ${rt.type} is already registered`);
    this.#types.set(rt.type, rt as ResourceType<unknown>);
  }

  lookup(type: string): ResourceType<unknown> | undefined {
    return this.#types.get(type);
  }

  types(): string[] {
    return [...this.#types.keys()].sort();
  }
}

/** defaultRegistry is the process-wide registry that decoders fall back to. */
export const defaultRegistry = new ResourceRegistry();
