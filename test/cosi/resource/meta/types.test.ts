import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { fillDefinition } from '../../../../src/cosi/resource/definition.js';
import {
  MetaOwner,
  NamespaceName,
  NamespaceType,
  newNamespace,
  newResourceDefinition,
  ResourceDefinitionType,
} from '../../../../src/cosi/resource/meta/index.js';
import { fromProtoResource, toProtoResource } from '../../../../src/cosi/resource/protobuf/resource.js';
import { equal } from '../../../../src/cosi/resource/resource.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../../src/cosi/resource/yaml.js';

// meta.proto as the specification repository defines it, for protobufjs to cross-check.
const META_PROTO = `
syntax = "proto3";
package cosi.resource.meta;
message NamespaceSpec { string description = 1; }
message ResourceDefinitionSpec {
  string resource_type = 1;
  string display_type = 2;
  string default_namespace = 3;
  repeated string aliases = 4;
  repeated string all_aliases = 5;
  message PrintColumn { string name = 1; string json_path = 2; }
  repeated PrintColumn print_columns = 6;
  enum Sensitivity { NON_SENSITIVE = 0; SENSITIVE = 1; }
  Sensitivity sensitivity = 7;
}
`;
const meta = protobuf.parse(META_PROTO, { keepCase: true }).root.resolveAll();
const RDProto = meta.lookupType('cosi.resource.meta.ResourceDefinitionSpec');
const NSProto = meta.lookupType('cosi.resource.meta.NamespaceSpec');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const protoSpecOf = (r: Parameters<typeof toProtoResource>[0]) =>
  new Uint8Array(toProtoResource(r).spec?.proto_spec as Uint8Array);

describe('meta types', () => {
  it('are named, aliased and placed as upstream', () => {
    expect([NamespaceName, MetaOwner]).toEqual(['meta', 'meta']);
    expect(NamespaceType.type).toBe('Namespaces.meta.cosi.dev');
    expect(NamespaceType.defaultNamespace).toBe('meta');
    expect(NamespaceType.definition.aliases).toEqual(['ns', 'namespace']);
    expect(NamespaceType.definition.allAliases).toEqual([
      'namespaces',
      'namespaces.meta',
      'namespaces.meta.cosi',
      'ns',
      'namespace',
    ]);
    expect(ResourceDefinitionType.type).toBe('ResourceDefinitions.meta.cosi.dev');
    expect(ResourceDefinitionType.definition).toEqual({
      type: 'ResourceDefinitions.meta.cosi.dev',
      displayType: 'ResourceDefinition',
      defaultNamespace: 'meta',
      aliases: ['api-resources', 'resourcedefinition', 'rd', 'rds'],
      allAliases: [
        'resourcedefinitions',
        'resourcedefinitions.meta',
        'resourcedefinitions.meta.cosi',
        'api-resources',
        'resourcedefinition',
        'rd',
        'rds',
      ],
      printColumns: [{ name: 'Aliases', jsonPath: '{.aliases[:]}' }],
    });
  });

  it('build resources in the meta namespace, a definition keyed by its lowercased type', () => {
    const rd = newResourceDefinition(NamespaceType.definition);
    expect([rd.metadata.namespace, rd.metadata.type, rd.metadata.id]).toEqual([
      'meta',
      'ResourceDefinitions.meta.cosi.dev',
      'namespaces.meta.cosi.dev',
    ]);
    const ns = newNamespace('network', 'networking');
    expect([ns.metadata.namespace, ns.metadata.id, ns.spec.description]).toEqual([
      'meta',
      'network',
      'networking',
    ]);
  });
});

describe('ResourceDefinition encoding', () => {
  // expected YAML produced by yaml.v3 from upstream's ResourceDefinitionSpec struct
  it('renders YAML with upstream tags in field order', () => {
    expect(
      specYAML(newResourceDefinition(ResourceDefinitionType.definition)),
    ).toBe(`type: ResourceDefinitions.meta.cosi.dev
displayType: ResourceDefinition
defaultNamespace: meta
aliases:
    - api-resources
    - resourcedefinition
    - rd
    - rds
allAliases:
    - resourcedefinitions
    - resourcedefinitions.meta
    - resourcedefinitions.meta.cosi
    - api-resources
    - resourcedefinition
    - rd
    - rds
printColumns:
    - name: Aliases
      jsonPath: '{.aliases[:]}'
`);
    const secret = fillDefinition({
      type: 'Secrets.sec.dev',
      defaultNamespace: 's',
      skipAutomaticAliases: true,
      sensitivity: 'sensitive',
    });
    expect(specYAML(newResourceDefinition(secret))).toBe(`type: Secrets.sec.dev
displayType: Secret
defaultNamespace: s
aliases: []
allAliases: []
skipAutomaticAliases: true
printColumns: []
sensitivity: sensitive
`);
  });

  it('encodes meta.proto ResourceDefinitionSpec as protobufjs does, type as resource_type', () => {
    const spec = fillDefinition({
      type: 'Secrets.sec.dev',
      defaultNamespace: 's',
      aliases: ['sec'],
      printColumns: [{ name: 'Kind', jsonPath: '{.kind}' }],
      sensitivity: 'sensitive',
    });
    const expected = RDProto.encode(
      RDProto.fromObject({
        resource_type: 'Secrets.sec.dev',
        display_type: 'Secret',
        default_namespace: 's',
        aliases: spec.aliases,
        all_aliases: spec.allAliases,
        print_columns: [{ name: 'Kind', json_path: '{.kind}' }],
        sensitivity: 'SENSITIVE',
      }),
    ).finish();
    expect(hex(protoSpecOf(newResourceDefinition(spec)))).toBe(hex(expected));
    const ns = NSProto.encode(NSProto.fromObject({ description: 'd' })).finish();
    expect(hex(protoSpecOf(newNamespace('x', 'd')))).toBe(hex(ns));
  });

  it('decodes back through protobuf and YAML to an equal resource', () => {
    for (const def of [
      ResourceDefinitionType.definition,
      fillDefinition({ type: 'Secrets.sec.dev', defaultNamespace: 's', sensitivity: 'sensitive' }),
    ]) {
      const rd = newResourceDefinition(def);
      rd.metadata.version = 4;
      expect(equal(fromProtoResource(toProtoResource(rd)), rd)).toBe(true);
      expect(equal(unmarshalResourceYAML(marshalResourceYAML(rd)), rd)).toBe(true);
    }
    const ns = newNamespace('a', 'b');
    expect(equal(fromProtoResource(toProtoResource(ns)), ns)).toBe(true);
  });

  it('rejects a sensitivity it does not know, in either direction', () => {
    const bad = RDProto.encode(RDProto.fromObject({ resource_type: 'X.y', sensitivity: 7 })).finish();
    const msg = toProtoResource(newResourceDefinition(ResourceDefinitionType.definition));
    expect(() => fromProtoResource({ ...msg, spec: { proto_spec: bad } })).toThrow(
      'unsupported sensitivity 7',
    );
    const weird = newResourceDefinition({
      ...ResourceDefinitionType.definition,
      sensitivity: 'secret' as 'sensitive',
    });
    expect(() => toProtoResource(weird)).toThrow('unsupported sensitivity "secret"');
  });
});
