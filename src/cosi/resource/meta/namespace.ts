// Namespaces.meta.cosi.dev: one resource per registered namespace, with a description.
import { defaultRegistry } from '../registry.js';
import { defineResource, type TypedResource } from '../typed.js';
import { NamespaceName } from './core.js';
import { recordOf, scalarText } from './fields.js';

/** NamespaceSpec describes a namespace (yaml key `description`, protobuf field 1). */
export interface NamespaceSpec {
  description: string;
}

export const NamespaceType = defineResource<NamespaceSpec>({
  type: 'Namespaces.meta.cosi.dev',
  defaultNamespace: NamespaceName,
  aliases: ['ns'],
  empty: () => ({ description: '' }),
  proto: { description: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ description: v.description as string }),
  toYAML: (s) => ({ description: s.description }),
  fromYAML: (v) => ({ description: scalarText(recordOf(v, 'spec').description, 'description') }),
});

export type Namespace = TypedResource<NamespaceSpec>;

/** newNamespace builds the meta resource for namespace `id`. */
export const newNamespace = (id: string, description: string): Namespace =>
  NamespaceType.new(NamespaceName, id, { description });

// like upstream's init(): decoders know the type without being told
defaultRegistry.register(NamespaceType);
