import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/cosi/resource/metadata.js';
import { OpaqueResource } from '../../../src/cosi/resource/opaque.js';
import { YAMLError } from '../../../src/cosi/resource/output/goyaml/errors.js';
import { ResourceRegistry } from '../../../src/cosi/resource/registry.js';
import { equal, Tombstone } from '../../../src/cosi/resource/resource.js';
import { defineResource, TypedResource } from '../../../src/cosi/resource/typed.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

const at = (iso: string) => Date.parse(iso);

const Flags = defineResource<boolean>({
  type: 'Flags.test.cosi.dev',
  defaultNamespace: 'ns',
  empty: () => false,
});
const Anything = defineResource<unknown>({
  type: 'Anythings.test.cosi.dev',
  defaultNamespace: 'ns',
  empty: () => null,
});

describe('marshalResourceYAML', () => {
  it('prints the upstream TestMarshalUnmarshal document byte for byte', () => {
    const md = new Metadata('ns', 'typ', 'id', {
      version: 3,
      owner: 'FooController',
      created: at('2021-06-23T19:22:29Z'),
      updated: at('2021-06-23T20:22:29Z'),
      labels: { app: 'foo' },
      annotations: { ttl: '1h' },
      finalizers: ['a1'],
    });
    expect(marshalResourceYAML(Flags.fromMetadata(md, true))).toBe(`metadata:
    namespace: ns
    type: typ
    id: id
    version: 3
    owner: FooController
    phase: running
    created: 2021-06-23T19:22:29Z
    updated: 2021-06-23T20:22:29Z
    labels:
        app: foo
    annotations:
        ttl: 1h
    finalizers:
        - a1
spec: true
`);
  });

  // expected output produced by gopkg.in/yaml.v3 v3.0.1 from the equivalent yaml.Node tree
  it('keeps metadata scalars plain where YAML allows and quotes only what cannot be plain', () => {
    const md = new Metadata('default', 'type', 'aaa', {
      version: 1,
      created: at('2021-06-23T19:22:29Z'),
      finalizers: ['"resource1', 'resource2'],
    });
    expect(
      marshalResourceYAML(
        Anything.fromMetadata(
          md,
          new Map([
            ['description', 'multi\nline'],
            ['n', null],
          ]),
        ),
      ),
    ).toBe(`metadata:
    namespace: default
    type: type
    id: aaa
    version: 1
    owner:
    phase: running
    created: 2021-06-23T19:22:29Z
    updated: 2021-06-23T19:22:29Z
    finalizers:
        - '"resource1'
        - resource2
spec:
    description: |-
        multi
        line
    "n": null
`);
  });

  it('sorts labels and annotations by key and writes "undefined" for an unset version', () => {
    const md = new Metadata('ns', 'typ', 'id', {
      created: 0,
      labels: { b: '2', a: '1', 'z/é': 'true' },
      annotations: { x: '' },
    });
    expect(marshalResourceYAML(Flags.fromMetadata(md, false))).toBe(`metadata:
    namespace: ns
    type: typ
    id: id
    version: undefined
    owner:
    phase: running
    created: 1970-01-01T00:00:00Z
    updated: 1970-01-01T00:00:00Z
    labels:
        a: 1
        b: 2
        z/é: true
    annotations:
        x:
spec: false
`);
  });

  // expected output produced by gopkg.in/yaml.v3 v3.0.1 marshalling the equivalent Go struct
  it('renders a spec as yaml.v3 renders the equivalent Go struct', () => {
    const spec = {
      hostname: 'node-1',
      version: '1.2',
      enabled: true,
      replicas: 3,
      ratio: 0.5,
      big: 1e21,
      addresses: ['10.0.0.1/24', 'fd00::1/64'],
      empty: [],
      nil: [],
      ports: [
        { name: 'http', number: 80, protocol: 'tcp' },
        { name: 'dns', number: 53 },
      ],
      labels: new Map([
        ['zone', 'a'],
        ['app', 'web'],
        ['tier10', 'x'],
        ['tier9', 'y'],
      ]),
      noLabels: new Map(),
      nested: { name: 'inner', number: 1 },
      ptr: null,
      script: '#!/bin/sh\necho hi\n',
      matrix: [[1, 2], [], [3]],
      when: new Date(at('2021-06-23T19:22:29.5Z')),
      quoted: [
        '',
        'true',
        'yes',
        '0755',
        '1e3',
        'null',
        '~',
        '- dash',
        'key: value',
        '#comment',
        'trailing ',
        '2021-06-23',
        '@at',
        'ok',
      ],
      bytes: new Uint8Array([1, 2]),
      negative: -42,
    };
    expect(specYAML(Anything.new('ns', 'x', spec))).toBe(`hostname: node-1
version: "1.2"
enabled: true
replicas: 3
ratio: 0.5
big: 1e+21
addresses:
    - 10.0.0.1/24
    - fd00::1/64
empty: []
nil: []
ports:
    - name: http
      number: 80
      protocol: tcp
    - name: dns
      number: 53
labels:
    app: web
    tier9: "y"
    tier10: x
    zone: a
noLabels: {}
nested:
    name: inner
    number: 1
ptr: null
script: |
    #!/bin/sh
    echo hi
matrix:
    - - 1
      - 2
    - []
    - - 3
when: 2021-06-23T19:22:29.5Z
quoted:
    - ""
    - "true"
    - "yes"
    - "0755"
    - "1e3"
    - "null"
    - "~"
    - '- dash'
    - 'key: value'
    - '#comment'
    - 'trailing '
    - "2021-06-23"
    - '@at'
    - ok
bytes:
    - 1
    - 2
negative: -42
`);
  });

  it('uses the codec toYAML for field order and leaves undefined properties out', () => {
    const Ordered = defineResource<{ b?: string; a: number }>({
      type: 'Ordereds.test.cosi.dev',
      defaultNamespace: 'ns',
      empty: () => ({ a: 0 }),
      toYAML: (s) => ({ a: s.a, b: s.b }),
    });
    expect(specYAML(Ordered.new('ns', 'o', { b: 'x', a: 1 }))).toBe('a: 1\nb: x\n');
    expect(specYAML(Ordered.new('ns', 'o', { a: 1 }))).toBe('a: 1\n');
  });

  it('re-emits an opaque spec in the styles it was written in', () => {
    const yamlSpec = 'a:   \'quoted\'\nb: [1, 2]\nc: |\n  text\nd: "x"\n';
    const r = OpaqueResource.of('ns', 'Unknowns.x.dev', 'u', { protoSpec: new Uint8Array(), yamlSpec });
    expect(specYAML(r)).toBe(yamlSpec);
    expect(marshalResourceYAML(r)).toContain(
      'spec:\n    a: \'quoted\'\n    b: [1, 2]\n    c: |\n        text\n    d: "x"\n',
    );
  });

  it('refuses tombstones and opaque resources without YAML', () => {
    expect(() => marshalResourceYAML(Tombstone.of({ namespace: 'n', type: 't', id: 'i' }))).toThrow(
      't(n/i) is a tombstone and has no spec',
    );
    const bare = OpaqueResource.of('n', 't', 'i', { protoSpec: new Uint8Array([1]), yamlSpec: '' });
    expect(() => marshalResourceYAML(bare)).toThrow(new YAMLError('marshal', 't(n/i) carries no YAML spec'));
    expect(specYAML(Tombstone.of({ namespace: 'n', type: 't', id: 'i' }))).toBe('');
  });

  it('names the path of a value YAML cannot hold', () => {
    expect(() => specYAML(Anything.new('ns', 'x', { a: [1, () => 1] }))).toThrow(
      'spec.a[1]: cannot marshal a function to YAML',
    );
  });
});

describe('unmarshalResourceYAML', () => {
  const registry = new ResourceRegistry();
  const Hosts = defineResource<{ name: string; port: number; tags: string[] }>({
    type: 'Hosts.test.cosi.dev',
    defaultNamespace: 'ns',
    empty: () => ({ name: '', port: 0, tags: [] }),
  });
  registry.register(Hosts);

  it('reads back what marshalResourceYAML wrote', () => {
    const r = Hosts.fromMetadata(
      new Metadata('ns', Hosts.type, 'h', {
        version: 7,
        owner: 'o',
        phase: 'tearingDown',
        created: at('2021-06-23T19:22:29Z'),
        updated: at('2021-06-24T00:00:00Z'),
        labels: { a: 'true' },
        annotations: { b: '3' },
        finalizers: ['x', 'y'],
      }),
      { name: '123', port: 8080, tags: ['a'] },
    );
    const back = unmarshalResourceYAML(marshalResourceYAML(r), registry);
    expect(back).toBeInstanceOf(TypedResource);
    expect(equal(back, r)).toBe(true);
    expect([back.metadata.created, back.metadata.updated]).toEqual([r.metadata.created, r.metadata.updated]);
  });

  it('keeps an unregistered type opaque, its spec re-emitted as yaml_spec', () => {
    const back = unmarshalResourceYAML(
      'metadata:\n  namespace: n\n  type: Others.x.dev\n  id: i\n  version: 2\n  phase: running\nspec:\n  k: [a]\n',
      registry,
    );
    expect(back).toBeInstanceOf(OpaqueResource);
    expect((back as OpaqueResource).spec.yamlSpec).toBe('k: [a]\n');
    expect(back.metadata.toString()).toBe('Others.x.dev(n/i@2)');
  });

  it.each([
    ['metadata: {}\n', 'spec is missing'],
    ['spec: 1\n', 'metadata is missing'],
    ['- a\n', 'expected a mapping with metadata and spec'],
    ['metadata:\n  version: x\nspec: 1\n', '2:12: metadata.version: invalid version "x"'],
    ['metadata:\n  phase: gone\nspec: 1\n', '2:10: metadata.phase: unknown phase "gone"'],
    ['metadata:\n  created: yesterday\nspec: 1\n', 'metadata.created: "yesterday" is not an RFC 3339 time'],
    ['metadata:\n  labels: [a]\nspec: 1\n', '2:11: metadata.labels: expected a mapping'],
    ['metadata: {a: [}\n', 'invalid YAML at 1:'],
  ])('rejects %j: %s', (text, message) => {
    expect(() => unmarshalResourceYAML(text, registry)).toThrow(message);
  });
});
