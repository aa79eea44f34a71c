import { describe, expect, it } from 'vitest';
import { newResourceDefinition, ResourceDefinitionType } from '../../../../src/cosi/resource/meta/index.js';
import { NamespaceType } from '../../../../src/cosi/resource/meta/namespace.js';
import { Metadata } from '../../../../src/cosi/resource/metadata.js';
import { OpaqueResource } from '../../../../src/cosi/resource/opaque.js';
import {
  renderJSON,
  renderTable,
  renderYAML,
  yamlToJSON,
} from '../../../../src/cosi/resource/output/index.js';
import { defineResource } from '../../../../src/cosi/resource/typed.js';

const at = (iso: string) => Date.parse(iso);

const Things = defineResource<{ description: string; count: number }>({
  type: 'Things.test.cosi.dev',
  defaultNamespace: 'ns',
  empty: () => ({ description: '', count: 0 }),
});

const thing = (id: string, version: number) =>
  Things.fromMetadata(
    new Metadata('ns', Things.type, id, {
      version,
      created: at('2021-06-23T19:22:29Z'),
      updated: at('2021-06-23T20:22:29Z'),
      labels: { app: 'foo' },
      annotations: { ttl: '1h' },
      finalizers: ['a1'],
    }),
    { description: '<b>', count: 1.5 },
  );

const doc = (id: string, version: number) => `metadata:
    namespace: ns
    type: Things.test.cosi.dev
    id: ${id}
    version: ${version}
    owner:
    phase: running
    created: 2021-06-23T19:22:29Z
    updated: 2021-06-23T20:22:29Z
    labels:
        app: foo
    annotations:
        ttl: 1h
    finalizers:
        - a1
spec:
    description: <b>
    count: 1.5
`;

describe('renderYAML', () => {
  it('prints a node line per document and --- between documents', () => {
    const out = renderYAML([
      { node: '10.5.0.2', resource: thing('a', 1) },
      { node: '10.5.0.3', resource: thing('b', 2) },
    ]);
    expect(out).toBe(`node: 10.5.0.2\n${doc('a', 1)}---\nnode: 10.5.0.3\n${doc('b', 2)}`);
  });

  it('adds the event when watching and skips events that carry no change', () => {
    const out = renderYAML(
      [
        { node: 'n', resource: thing('a', 1), event: 'created' },
        { node: 'n', resource: thing('a', 1), event: 'bootstrapped' },
        { node: 'n', resource: thing('a', 2), event: 'destroyed' },
        { node: 'n', resource: thing('a', 2), event: 'noop' },
      ],
      { withEvents: true },
    );
    expect(out).toBe(`node: n\nevent: created\n${doc('a', 1)}---\nnode: n\nevent: destroyed\n${doc('a', 2)}`);
  });
});

describe('renderJSON', () => {
  // expected output produced by yaml.v3 Unmarshal into a map plus encoding/json with a 4-space indent
  it('re-types the YAML, sorts keys at every level and escapes HTML', () => {
    expect(
      renderJSON([{ node: '10.5.0.2', resource: thing('id', 3), event: 'created' }], { withEvents: true }),
    ).toBe(`{
    "event": "created",
    "metadata": {
        "annotations": {
            "ttl": "1h"
        },
        "created": "2021-06-23T19:22:29Z",
        "finalizers": [
            "a1"
        ],
        "id": "id",
        "labels": {
            "app": "foo"
        },
        "namespace": "ns",
        "owner": null,
        "phase": "running",
        "type": "Things.test.cosi.dev",
        "updated": "2021-06-23T20:22:29Z",
        "version": 3
    },
    "node": "10.5.0.2",
    "spec": {
        "count": 1.5,
        "description": "\\u003cb\\u003e"
    }
}
`);
  });

  it('prints one document per entry, without an event key unless watching', () => {
    const out = renderJSON([
      { node: 'a', resource: thing('x', 1) },
      { node: 'b', resource: thing('y', 1), event: 'errored' },
      { node: 'c', resource: thing('z', 1) },
    ]);
    expect(out.match(/^\{$/gm)).toHaveLength(2);
    expect(out).not.toContain('"event"');
  });

  it('turns plain metadata values that read as numbers or booleans into JSON numbers and booleans', () => {
    const json = yamlToJSON('metadata:\n    id: 123\n    labels:\n        on: true\nspec: {}\n', {
      node: 'n',
    });
    expect(json).toBe(
      '{\n    "metadata": {\n        "id": 123,\n        "labels": {\n            "on": true\n        }\n    },\n    "node": "n",\n    "spec": {}\n}\n',
    );
  });
});

describe('renderTable', () => {
  const rds = [
    newResourceDefinition(NamespaceType.definition),
    newResourceDefinition(ResourceDefinitionType.definition),
  ];
  for (const r of rds) r.metadata.version = 1;

  it('prints the fixed columns, DisplayType and one column per print column, padded by 3', () => {
    const out = renderTable(
      ResourceDefinitionType.definition,
      rds.map((resource) => ({ node: '10.5.0.2', resource })),
    );
    expect(out).toBe(
      [
        'NODE       NAMESPACE   TYPE                 ID                                  VERSION   ALIASES',
        '10.5.0.2   meta        ResourceDefinition   namespaces.meta.cosi.dev            1         ns namespace',
        '10.5.0.2   meta        ResourceDefinition   resourcedefinitions.meta.cosi.dev   1         api-resources resourcedefinition rd rds',
        '',
      ].join('\n'),
    );
  });

  it('adds the event marker column when watching and skips bootstrapped, errored and noop', () => {
    const out = renderTable(
      { displayType: 'Thing', printColumns: [{ name: 'Count', jsonPath: '{.count}' }] },
      [
        { node: 'n1', resource: thing('a', 1), event: 'created' },
        { node: 'n1', resource: thing('a', 1), event: 'bootstrapped' },
        { node: 'n1', resource: thing('a', 2), event: 'updated' },
        { node: 'n1', resource: thing('a', 2), event: 'destroyed' },
      ],
      { withEvents: true },
    );
    expect(out).toBe(
      [
        'NODE   *   NAMESPACE   TYPE    ID   VERSION   COUNT',
        'n1     +   ns          Thing   a    1         1.5',
        'n1         ns          Thing   a    2         1.5',
        'n1     -   ns          Thing   a    2         1.5',
        '',
      ].join('\n'),
    );
  });

  it('reads print columns from the yaml_spec of opaque resources, missing keys giving empty cells', () => {
    const opaque = OpaqueResource.of('ns', 'Others.x.dev', 'o', {
      protoSpec: new Uint8Array(),
      yamlSpec: 'addresses:\n    - 10.0.0.1/24\n    - 10.0.0.2/24\n',
    });
    const out = renderTable(
      {
        displayType: 'Other',
        printColumns: [
          { name: 'Address', jsonPath: '{.addresses[*]}' },
          { name: 'Missing', jsonPath: '{.nope.deeper}' },
          { name: 'Last', jsonPath: '{.addresses[-1]}' },
        ],
      },
      [{ node: 'n', resource: opaque }],
    );
    expect(out).toBe(
      [
        'NODE   NAMESPACE   TYPE    ID   VERSION     ADDRESS                   MISSING   LAST',
        'n      ns          Other   o    undefined   10.0.0.1/24 10.0.0.2/24             10.0.0.2/24',
        '',
      ].join('\n'),
    );
  });

  it('names the column whose JSONPath does not parse', () => {
    expect(() =>
      renderTable({ displayType: 'X', printColumns: [{ name: 'Bad', jsonPath: '{range .a}' }] }, []),
    ).toThrow('error parsing column "Bad"');
  });
});
