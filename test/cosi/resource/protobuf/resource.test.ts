import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { NamespaceType } from '../../../../src/cosi/resource/meta/index.js';
import { Metadata } from '../../../../src/cosi/resource/metadata.js';
import { OpaqueResource } from '../../../../src/cosi/resource/opaque.js';
import { ProtoError } from '../../../../src/cosi/resource/protobuf/errors.js';
import {
  decodeProtoResource,
  decodeResource,
  encodeProtoResource,
  encodeResource,
  fromProtoResource,
  metadataFromProto,
  metadataToProto,
  type ProtoResource,
  toProtoResource,
} from '../../../../src/cosi/resource/protobuf/resource.js';
import { encodeSpec } from '../../../../src/cosi/resource/protobuf/spec.js';
import { ResourceRegistry } from '../../../../src/cosi/resource/registry.js';
import { equal, Tombstone } from '../../../../src/cosi/resource/resource.js';
import { defineResource, TypedResource } from '../../../../src/cosi/resource/typed.js';

// cosi.resource.Resource as the specification repository defines it, for protobufjs to cross-check.
const RESOURCE_PROTO = `
syntax = "proto3";
package cosi.resource;
message Timestamp { int64 seconds = 1; int32 nanos = 2; }
message Metadata {
  string namespace = 1; string type = 2; string id = 3; string version = 4; string owner = 5; string phase = 6;
  Timestamp created = 7; Timestamp updated = 8;
  repeated string finalizers = 9;
  map<string, string> annotations = 11;
  map<string, string> labels = 10;
}
message Spec { bytes proto_spec = 1; string yaml_spec = 2; }
message Resource { Metadata metadata = 1; Spec spec = 2; }
`;
const ResourceMsg = protobuf
  .parse(RESOURCE_PROTO, { keepCase: true })
  .root.resolveAll()
  .lookupType('cosi.resource.Resource');
/** the options the gRPC proto loader decodes with */
const LOADER = { longs: String, enums: String, defaults: false, oneofs: true, bytes: Buffer };

interface WidgetSpec {
  name: string;
  count: number;
  tags: string[];
}

const Widgets = defineResource<WidgetSpec>({
  type: 'Widgets.test.cosi.dev',
  defaultNamespace: 'default',
  empty: () => ({ name: '', count: 0, tags: [] }),
  proto: {
    name: { no: 1, kind: 'string' },
    count: { no: 2, kind: 'int32' },
    tags: { no: 3, kind: 'string', repeated: true },
  },
});

/** a type without a protobuf schema: only yaml_spec carries its spec */
const Notes = defineResource<{ text: string; pinned: boolean }>({
  type: 'Notes.test.cosi.dev',
  defaultNamespace: 'default',
  empty: () => ({ text: '', pinned: false }),
});

const registry = new ResourceRegistry();
registry.register(Widgets);
registry.register(Notes);

/** the proto_spec bytes of a message, as a plain list */
const protoBytes = (m: ProtoResource) => [...((m.spec?.proto_spec as Uint8Array | undefined) ?? [])];

const CREATED = Date.UTC(2021, 5, 23, 19, 22, 29, 123);
const UPDATED = CREATED + 3_600_000 + 1;

function widget(): TypedResource<WidgetSpec> {
  const md = new Metadata('default', Widgets.type, 'w1', {
    version: 3,
    owner: 'WidgetController',
    phase: 'tearingDown',
    created: CREATED,
    updated: UPDATED,
    labels: { app: 'foo', tier: 'web' },
    annotations: { note: 'x' },
    finalizers: ['f1', 'f2'],
  });
  return Widgets.fromMetadata(md, { name: 'foo', count: 2, tags: ['a', 'b'] });
}

describe('toProtoResource', () => {
  it('fills metadata, proto_spec from the schema and yaml_spec from the spec', () => {
    const msg = toProtoResource(widget());
    expect(msg.metadata).toEqual({
      namespace: 'default',
      type: 'Widgets.test.cosi.dev',
      id: 'w1',
      version: '3',
      owner: 'WidgetController',
      phase: 'tearingDown',
      created: { seconds: '1624476149', nanos: 123_000_000 },
      updated: { seconds: '1624479749', nanos: 124_000_000 },
      finalizers: ['f1', 'f2'],
      labels: { app: 'foo', tier: 'web' },
      annotations: { note: 'x' },
    });
    expect(Buffer.isBuffer(msg.spec?.proto_spec)).toBe(true);
    expect(new Uint8Array(msg.spec?.proto_spec as Uint8Array)).toEqual(
      encodeSpec({ name: 'foo', count: 2, tags: ['a', 'b'] }, Widgets.codec.proto!),
    );
    expect(msg.spec?.yaml_spec).toBe('name: foo\ncount: 2\ntags:\n    - a\n    - b\n');
  });

  it('writes "undefined" for an unset version and leaves YAML out on request', () => {
    const msg = toProtoResource(Widgets.new('default', 'w2'), { withoutYAML: true });
    expect(msg.metadata?.version).toBe('undefined');
    expect(msg.metadata?.phase).toBe('running');
    expect(msg.spec?.yaml_spec).toBe('');
  });

  it('sends only YAML for a type without a schema', () => {
    const msg = toProtoResource(Notes.new('default', 'n', { text: 'true', pinned: true }));
    expect(msg.spec?.proto_spec).toHaveLength(0);
    expect(msg.spec?.yaml_spec).toBe('text: "true"\npinned: true\n');
  });

  it('passes an opaque resource through, YAML included', () => {
    const r = OpaqueResource.of('ns', 'Unknowns.x.dev', 'u', {
      protoSpec: new Uint8Array([8, 1]),
      yamlSpec: 'a: 1\n',
    });
    const msg = toProtoResource(r, { withoutYAML: true });
    expect(protoBytes(msg)).toEqual([8, 1]);
    expect(msg.spec?.yaml_spec).toBe('a: 1\n');
  });

  it('gives a tombstone its metadata and an empty spec', () => {
    const msg = toProtoResource(Tombstone.of({ namespace: 'ns', type: Widgets.type, id: 'gone' }));
    expect(msg.metadata?.id).toBe('gone');
    expect(msg.spec?.proto_spec).toHaveLength(0);
    expect(msg.spec?.yaml_spec).toBe('');
  });

  it('names the resource when its spec does not fit the schema', () => {
    const bad = Widgets.new('default', 'bad', { name: 'x', count: 1.5, tags: [] });
    expect(() => toProtoResource(bad)).toThrow(
      'encoding the spec of Widgets.test.cosi.dev(default/bad): spec.count: expected a 32-bit integer, got number 1.5',
    );
  });
});

describe('fromProtoResource', () => {
  it('decodes a registered type with a schema from proto_spec', () => {
    const back = fromProtoResource(toProtoResource(widget()), { registry });
    expect(back).toBeInstanceOf(TypedResource);
    expect(Widgets.is(back)).toBe(true);
    expect(equal(back, widget())).toBe(true);
    expect([back.metadata.created, back.metadata.updated]).toEqual([CREATED, UPDATED]);
  });

  it('decodes a registered type without a schema from yaml_spec', () => {
    const r = Notes.new('default', 'n', { text: '123', pinned: false });
    r.metadata.version = 1;
    const back = fromProtoResource(toProtoResource(r), { registry });
    expect(equal(back, r)).toBe(true);
  });

  it('keeps unknown types, or every type when asked, opaque', () => {
    const msg = toProtoResource(widget());
    const unknown = fromProtoResource(msg, { registry: new ResourceRegistry() });
    expect(unknown).toBeInstanceOf(OpaqueResource);
    expect((unknown as OpaqueResource).spec.yamlSpec).toBe(msg.spec?.yaml_spec);
    const skipped = fromProtoResource(msg, { registry, skipProtobufUnmarshal: true });
    expect(skipped).toBeInstanceOf(OpaqueResource);
    expect([...(skipped as OpaqueResource).spec.protoSpec]).toEqual(protoBytes(msg));
    // the opaque spec owns its bytes
    expect(Buffer.isBuffer((skipped as OpaqueResource).spec.protoSpec)).toBe(false);
  });

  it('uses the default registry, where the meta types are registered', () => {
    const ns = NamespaceType.new('meta', 'default', { description: 'the default' });
    const back = fromProtoResource(toProtoResource(ns));
    expect(NamespaceType.is(back)).toBe(true);
    expect(back.spec).toEqual({ description: 'the default' });
  });

  it('rejects a message without metadata or spec', () => {
    expect(() => fromProtoResource({ spec: {} })).toThrow(
      new ProtoError('invalid-message', 'metadata is missing'),
    );
    expect(() => fromProtoResource({ metadata: { version: '1', phase: 'running' } })).toThrow(
      'spec is missing',
    );
  });

  it('rejects versions and phases that do not parse, naming the resource', () => {
    const md = { namespace: 'ns', type: 'T', id: 'x', version: '1', phase: 'running' };
    expect(() => fromProtoResource({ metadata: { ...md, version: 'x' }, spec: {} })).toThrow(
      'metadata of T(ns/x): version: invalid version "x": not a decimal integer',
    );
    expect(() => fromProtoResource({ metadata: { ...md, version: '' }, spec: {} })).toThrow('version');
    expect(() => fromProtoResource({ metadata: { ...md, phase: 'dying' }, spec: {} })).toThrow(
      'metadata of T(ns/x): phase: unknown phase "dying"',
    );
  });

  it('reports a spec that does not decode', () => {
    const msg: ProtoResource = {
      metadata: { namespace: 'default', type: Widgets.type, id: 'w', version: '1', phase: 'running' },
      spec: { proto_spec: Buffer.from([0x0a, 0x09]) },
    };
    expect(() => fromProtoResource(msg, { registry })).toThrow(
      /decoding the spec of Widgets.test.cosi.dev\(default\/w\): malformed protobuf: length 9 past the end/,
    );
  });
});

describe('metadata conversion', () => {
  it('round-trips, with an undefined version and absent timestamps at the epoch', () => {
    const md = widget().metadata;
    expect(metadataFromProto(metadataToProto(md)).equal(md)).toBe(true);
    const bare = metadataFromProto({
      namespace: 'n',
      type: 't',
      id: 'i',
      version: 'undefined',
      phase: 'running',
    });
    expect(bare.version).toBeUndefined();
    expect([bare.created, bare.updated, bare.owner]).toEqual([0, 0, '']);
  });

  it('reads 64-bit seconds given as numbers, strings or Long-like objects', () => {
    const at = (seconds: unknown) =>
      metadataFromProto({
        version: '1',
        phase: 'running',
        created: { seconds: seconds as string, nanos: 5_000_000 },
      }).created;
    expect(at('1624476149')).toBe(1624476149005);
    expect(at(1624476149)).toBe(1624476149005);
    expect(at({ low: 1624476149, high: 0, toString: () => '1624476149' })).toBe(1624476149005);
  });
});

describe('binary Resource messages', () => {
  it('match protobufjs byte for byte', () => {
    const r = widget();
    const bytes = encodeResource(r);
    const viaProtobufjs = ResourceMsg.encode(
      ResourceMsg.fromObject(toProtoResource(r) as Record<string, unknown>),
    ).finish();
    expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(viaProtobufjs).toString('hex'));
  });

  it('decode to what the proto loader would hand over', () => {
    const bytes = encodeResource(widget());
    const loaderView = ResourceMsg.toObject(ResourceMsg.decode(bytes), LOADER) as ProtoResource;
    const mine = decodeProtoResource(bytes);
    const plain = (m: ProtoResource) => ({
      ...m,
      spec: { ...m.spec, proto_spec: new Uint8Array(m.spec?.proto_spec as Uint8Array) },
    });
    expect(plain(mine)).toEqual(plain(loaderView));
    expect(equal(fromProtoResource(loaderView, { registry }), widget())).toBe(true);
  });

  it('round-trip through encodeResource and decodeResource', () => {
    expect(equal(decodeResource(encodeResource(widget()), { registry }), widget())).toBe(true);
    const tomb = decodeResource(encodeResource(Tombstone.of({ namespace: 'a', type: 'B', id: 'c' })));
    expect(tomb).toBeInstanceOf(OpaqueResource);
  });

  it('leave defaults out and skip unknown fields', () => {
    expect(encodeProtoResource({ metadata: { namespace: '', owner: '' }, spec: {} })).toEqual(
      new Uint8Array([0x0a, 0x00, 0x12, 0x00]),
    );
    const withExtra = Buffer.concat([encodeResource(widget()), Buffer.from([0x1a, 0x01, 0x00, 0x20, 0x05])]);
    expect(equal(decodeResource(withExtra, { registry }), widget())).toBe(true);
  });
});
