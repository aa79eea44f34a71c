// NodeLabelSpecs.k8s.talos.dev: upstream's type, namespace, columns and sensitivity, its YAML, and its proto fields by number.
import { describe, expect, it } from 'vitest';
import { K8S_NAMESPACE, K8S_TYPES, NodeLabelSpec } from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  fromProtoResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('NodeLabelSpecs.k8s.talos.dev', () => {
  it('has upstream’s type, namespace, columns and sensitivity, and is registered', () => {
    expect(NodeLabelSpec.type).toBe('NodeLabelSpecs.k8s.talos.dev');
    expect(NodeLabelSpec.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(NodeLabelSpec.definition.sensitivity).toBe('sensitive');
    expect(NodeLabelSpec.definition.printColumns).toEqual([{ name: 'Value', jsonPath: '{.value}' }]);
    expect(K8S_TYPES).toContain(NodeLabelSpec);
    expect(defaultRegistry.lookup(NodeLabelSpec.type)).toBe(NodeLabelSpec);
  });

  it('writes upstream’s YAML and proto fields, and survives the wire with either alone', () => {
    const r = NodeLabelSpec.new(K8S_NAMESPACE, 'zone', { key: 'k', value: 'v' });
    const msg = toProtoResource(r);
    expect(msg.spec?.yaml_spec).toBe('key: k\nvalue: v\n');
    expect(Buffer.from(msg.spec?.proto_spec as Uint8Array).toString('hex')).toBe('0a016b120176');
    const back = decodeResource(encodeResource(r));
    expect(NodeLabelSpec.is(back) && back.spec).toEqual(r.spec);
    const fromProto = fromProtoResource(toProtoResource(r, { withoutYAML: true }));
    expect(NodeLabelSpec.is(fromProto) && fromProto.spec).toEqual(r.spec);
  });
});
