import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { Metadata } from '../../../../src/cosi/resource/metadata.js';
import { OpaqueResource } from '../../../../src/cosi/resource/opaque.js';
import { ResourceRegistry } from '../../../../src/cosi/resource/registry.js';
import { equal, type Resource, Tombstone } from '../../../../src/cosi/resource/resource.js';
import { TypedResource } from '../../../../src/cosi/resource/typed.js';
import {
  decodeRecord,
  encodeDestroy,
  encodePut,
  RecordError,
  recordKey,
  resourceOf,
  type StoredPut,
} from '../../../../src/cosi/state/durable/record.js';
import { Sample, testRegistry, Unlisted } from './fixtures/resources.js';

const reload = (r: Resource, registry = testRegistry()): Resource => {
  const rec = decodeRecord(encodePut(r));
  if (rec.op !== 'put') throw new Error('expected a put record');
  return resourceOf(rec, registry);
};

/** every metadata field, timestamps included (metadata.equal ignores those) */
const expectSameMetadata = (a: Metadata, b: Metadata) => {
  expect(b.equal(a)).toBe(true);
  expect({ created: b.created, updated: b.updated }).toEqual({ created: a.created, updated: a.updated });
  expect(b.finalizers.list()).toEqual(a.finalizers.list());
  expect(b.labels.raw()).toEqual(a.labels.raw());
  expect(b.annotations.raw()).toEqual(a.annotations.raw());
};

describe('record codec', () => {
  it('round-trips every metadata field and a typed spec', () => {
    const r = Sample.fromMetadata(
      new Metadata('persistent', Sample.type, 'one/two three', {
        version: 42,
        owner: 'network.AddressSpecController',
        phase: 'tearingDown',
        created: 1_700_000_000_001,
        updated: 1_700_000_999_999,
        labels: { 'talos.dev/role': 'worker', empty: '' },
        annotations: { note: 'ünïcödé ✓', 'multi\nline': 'a\nb' },
        finalizers: ['z-last', 'a-first', 'm-middle'],
      }),
      {
        addr: new Uint8Array([10, 0, 0, 1]),
        routes: new Map([['default', { gw: '10.0.0.254', metric: 1024n }]]),
        since: new Date(1_690_000_000_000),
        optional: undefined,
        list: [1, 'two', null, [3]],
      },
    );
    const back = reload(r);
    expect(back).toBeInstanceOf(TypedResource);
    expect(Sample.is(back)).toBe(true);
    expectSameMetadata(r.metadata, back.metadata);
    expect(equal(back, r)).toBe(true);
    expect(Object.hasOwn(back.spec as object, 'optional')).toBe(true);
    expect(back.spec).toStrictEqual(r.spec);
  });

  it('round-trips an undefined version and default metadata', () => {
    const r = Sample.new('persistent', 'fresh', { n: 1 });
    const back = reload(r);
    expect(back.metadata.version).toBeUndefined();
    expectSameMetadata(r.metadata, back.metadata);
  });

  it('keeps an opaque resource as its bytes and YAML', () => {
    const r = new OpaqueResource(
      new Metadata('persistent', 'Remotes.example.org', 'r1', {
        version: 3,
        owner: 'remote',
        finalizers: ['f'],
      }),
      { protoSpec: new Uint8Array([8, 150, 1, 0, 255]), yamlSpec: 'a: 1\nb: [x, y]\n' },
    );
    const back = reload(r);
    expect(back).toBeInstanceOf(OpaqueResource);
    expectSameMetadata(r.metadata, back.metadata);
    expect(back.spec).toStrictEqual(r.spec);
    expect(back.equalSpec(r)).toBe(true);
  });

  it('keeps an opaque resource opaque even when its type is registered', () => {
    const r = new OpaqueResource(new Metadata('persistent', Sample.type, 'o', { version: 1 }), {
      protoSpec: new Uint8Array([1]),
      yamlSpec: 'x: 1\n',
    });
    expect(reload(r)).toBeInstanceOf(OpaqueResource);
  });

  it('loads a type missing from the registry as an opaque resource with its spec as YAML', () => {
    const r = Unlisted.new('persistent', 'u', { name: 'disk', size: 1n << 40n });
    r.metadata.version = 7;
    const back = reload(r, new ResourceRegistry());
    expect(back).toBeInstanceOf(OpaqueResource);
    expect(back.metadata.type).toBe(Unlisted.type);
    expectSameMetadata(r.metadata, back.metadata);
    const spec = (back as OpaqueResource).spec;
    expect(spec.protoSpec).toHaveLength(0);
    expect(YAML.parse(spec.yamlSpec)).toEqual({ name: 'disk', size: 2 ** 40 });
  });

  it('captures the resource when encoded, not later edits', () => {
    const r = Sample.new('persistent', 'a', { n: 1 });
    const bytes = encodePut(r);
    r.spec.n = 2;
    r.metadata.labels.set('late', 'yes');
    const rec = decodeRecord(bytes) as StoredPut;
    expect(resourceOf(rec, testRegistry()).spec).toEqual({ n: 1 });
    expect(rec.labels).toEqual({});
  });

  it('encodes a destroy by pointer', () => {
    const p = Sample.pointer('gone');
    expect(decodeRecord(encodeDestroy(p))).toEqual({
      op: 'destroy',
      ns: p.namespace,
      type: p.type,
      id: p.id,
    });
  });

  it('refuses tombstones and unencodable specs', () => {
    expect(() => encodePut(Tombstone.of(Sample.pointer('t')))).toThrow(/tombstone/);
    expect(() => encodePut(Sample.new('persistent', 's', { set: new Set([1]) }))).toThrow(
      `cannot store an instance of Set at ${Sample.type}(persistent/s).spec.set`,
    );
  });

  it('keys resources unambiguously', () => {
    expect(recordKey({ namespace: 'a', type: 'b\u0000c', id: 'd' })).not.toBe(
      recordKey({ namespace: 'a', type: 'b', id: 'c\u0000d' }),
    );
  });

  it('rejects bytes that are not a valid record, saying what is wrong', () => {
    const put = JSON.parse(encodePut(Sample.new('persistent', 'x', { n: 1 })).toString('utf8'));
    const bad: [unknown, RegExp][] = [
      ['not json{', /not JSON/],
      [[1], /not an object/],
      [{ ...put, op: 'merge' }, /unknown op "merge"/],
      [{ ...put, id: 5 }, /field id is not a string/],
      [{ ...put, version: -1 }, /invalid version -1/],
      [{ ...put, version: 1.5 }, /invalid version 1.5/],
      [{ ...put, created: 'now' }, /field created is not a number/],
      [{ ...put, phase: 'dying' }, /invalid phase "dying"/],
      [{ ...put, labels: { a: 1 } }, /field labels holds a non-string/],
      [{ ...put, finalizers: 'f' }, /field finalizers is not a list of strings/],
      [{ ...put, spec: {} }, /neither typed nor opaque/],
      [{ ...put, spec: { json: { $t: 'what' } } }, /not tagged JSON/],
    ];
    for (const [doc, msg] of bad) {
      const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
      expect(() => decodeRecord(Buffer.from(text)), text).toThrow(RecordError);
      expect(() => decodeRecord(Buffer.from(text)), text).toThrow(msg);
    }
  });
});
