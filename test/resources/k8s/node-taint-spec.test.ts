// NodeTaintSpecs.k8s.talos.dev: upstream's type, namespace, columns and sensitivity, its YAML, and its proto fields by number.
import { describe, expect, it } from 'vitest';
import { K8S_NAMESPACE, K8S_TYPES, NodeTaintSpec } from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  fromProtoResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('NodeTaintSpecs.k8s.talos.dev', () => {
  it('has upstream’s type, namespace, columns and sensitivity, and is registered', () => {
    expect(NodeTaintSpec.type).toBe('NodeTaintSpecs.k8s.talos.dev');
    expect(NodeTaintSpec.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(NodeTaintSpec.definition.sensitivity).toBe('sensitive');
    expect(NodeTaintSpec.definition.printColumns).toEqual([
      { name: 'Effect', jsonPath: '{.effect}' },
      { name: 'Value', jsonPath: '{.value}' },
    ]);
    expect(K8S_TYPES).toContain(NodeTaintSpec);
    expect(defaultRegistry.lookup(NodeTaintSpec.type)).toBe(NodeTaintSpec);
  });

  it('writes upstream’s YAML and proto fields, and survives the wire with either alone', () => {
    const r = NodeTaintSpec.new(K8S_NAMESPACE, 'dedicated', { key: 'k', effect: 'E', value: 'v' });
    const msg = toProtoResource(r);
    expect(msg.spec?.yaml_spec).toBe('key: k\neffect: E\nvalue: v\n');
    expect(Buffer.from(msg.spec?.proto_spec as Uint8Array).toString('hex')).toBe('0a016b1201451a0176');
    const back = decodeResource(encodeResource(r));
    expect(NodeTaintSpec.is(back) && back.spec).toEqual(r.spec);
    const fromProto = fromProtoResource(toProtoResource(r, { withoutYAML: true }));
    expect(NodeTaintSpec.is(fromProto) && fromProto.spec).toEqual(r.spec);
  });
});
