// ResourceDefinitions.meta.cosi.dev: one resource per registered type, which clients resolve kinds against.
//
// The spec keeps upstream's YAML shape (yaml tags in field order, skipAutomaticAliases and
// sensitivity left out when empty). On the wire it is meta.proto's ResourceDefinitionSpec, whose
// field names differ (type → resource_type) and whose sensitivity is an enum; skipAutomaticAliases
// has no field there, so it does not survive protobuf, as upstream.
import { cloneData } from '../data.js';
import { definitionID, type PrintColumn, type ResourceDefinitionSpec } from '../definition.js';
import type { ProtoSchema } from '../proto-schema.js';
import { defaultRegistry } from '../registry.js';
import { defineResource, type TypedResource } from '../typed.js';
import { NamespaceName } from './core.js';
import { listOf, recordOf, scalarText } from './fields.js';

/** The meta.proto message, keyed by the proto-view property names toProto produces. */
export const ResourceDefinitionSpecProto: ProtoSchema = {
  resourceType: { no: 1, kind: 'string' },
  displayType: { no: 2, kind: 'string' },
  defaultNamespace: { no: 3, kind: 'string' },
  aliases: { no: 4, kind: 'string', repeated: true },
  allAliases: { no: 5, kind: 'string', repeated: true },
  printColumns: {
    no: 6,
    kind: 'message',
    repeated: true,
    schema: { name: { no: 1, kind: 'string' }, jsonPath: { no: 2, kind: 'string' } },
  },
  sensitivity: { no: 7, kind: 'enum' },
};

/** ResourceDefinitionSpec_Sensitivity values */
const NON_SENSITIVE = 0;
const SENSITIVE = 1;

function toProto(s: ResourceDefinitionSpec): Record<string, unknown> {
  const sensitivity = s.sensitivity ?? '';
  if (sensitivity !== '' && sensitivity !== 'sensitive')
    throw new TypeError(`unsupported sensitivity ${JSON.stringify(sensitivity)}`);
  return {
    resourceType: s.type,
    displayType: s.displayType,
    defaultNamespace: s.defaultNamespace,
    aliases: s.aliases,
    allAliases: s.allAliases,
    printColumns: s.printColumns.map((c) => ({ name: c.name, jsonPath: c.jsonPath })),
    sensitivity: sensitivity === 'sensitive' ? SENSITIVE : NON_SENSITIVE,
  };
}

function fromProto(v: Record<string, unknown>): ResourceDefinitionSpec {
  const spec: ResourceDefinitionSpec = {
    type: v.resourceType as string,
    displayType: v.displayType as string,
    defaultNamespace: v.defaultNamespace as string,
    aliases: v.aliases as string[],
    allAliases: v.allAliases as string[],
    printColumns: v.printColumns as PrintColumn[],
  };
  if (v.sensitivity === SENSITIVE) spec.sensitivity = 'sensitive';
  else if (v.sensitivity !== NON_SENSITIVE)
    throw new TypeError(`unsupported sensitivity ${String(v.sensitivity)}`);
  return spec;
}

/** toYAML gives upstream's yaml tags in struct field order. */
function toYAML(s: ResourceDefinitionSpec): Record<string, unknown> {
  return {
    type: s.type,
    displayType: s.displayType,
    defaultNamespace: s.defaultNamespace,
    aliases: s.aliases,
    allAliases: s.allAliases,
    ...(s.skipAutomaticAliases ? { skipAutomaticAliases: true } : {}),
    printColumns: s.printColumns.map((c) => ({ name: c.name, jsonPath: c.jsonPath })),
    ...(s.sensitivity ? { sensitivity: s.sensitivity } : {}),
  };
}

function fromYAML(v: unknown): ResourceDefinitionSpec {
  const m = recordOf(v, 'spec');
  const text = (x: unknown, at: string) => scalarText(x, at);
  const spec: ResourceDefinitionSpec = {
    type: text(m.type, 'type'),
    displayType: text(m.displayType, 'displayType'),
    defaultNamespace: text(m.defaultNamespace, 'defaultNamespace'),
    aliases: listOf(m.aliases, 'aliases', text),
    allAliases: listOf(m.allAliases, 'allAliases', text),
    printColumns: listOf(m.printColumns, 'printColumns', (c, at) => {
      const col = recordOf(c, at);
      return { name: text(col.name, `${at}.name`), jsonPath: text(col.jsonPath, `${at}.jsonPath`) };
    }),
  };
  if (m.skipAutomaticAliases === true) spec.skipAutomaticAliases = true;
  const sensitivity = text(m.sensitivity, 'sensitivity');
  if (sensitivity === 'sensitive') spec.sensitivity = 'sensitive';
  else if (sensitivity !== '')
    throw new TypeError(`sensitivity: unknown sensitivity ${JSON.stringify(sensitivity)}`);
  return spec;
}

export const ResourceDefinitionType = defineResource<ResourceDefinitionSpec>({
  type: 'ResourceDefinitions.meta.cosi.dev',
  defaultNamespace: NamespaceName,
  aliases: ['api-resources'],
  printColumns: [{ name: 'Aliases', jsonPath: '{.aliases[:]}' }],
  empty: () => ({
    type: '',
    displayType: '',
    defaultNamespace: '',
    aliases: [],
    allAliases: [],
    printColumns: [],
  }),
  proto: ResourceDefinitionSpecProto,
  toProto,
  fromProto,
  toYAML,
  fromYAML,
});

export type ResourceDefinition = TypedResource<ResourceDefinitionSpec>;

/** newResourceDefinition builds the meta resource describing a type; its id is the lowercased type. */
export const newResourceDefinition = (definition: ResourceDefinitionSpec): ResourceDefinition =>
  ResourceDefinitionType.new(NamespaceName, definitionID(definition.type), cloneData(definition));

// like upstream's init(): decoders know the type without being told
defaultRegistry.register(ResourceDefinitionType);
