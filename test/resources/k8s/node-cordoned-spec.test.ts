// NodeCordonedSpecs.k8s.talos.dev: upstream's type, namespace, columns and sensitivity, its YAML, and its proto fields by number.
import { describe, expect, it } from 'vitest';
import { K8S_NAMESPACE, K8S_TYPES, NodeCordonedSpec } from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  fromProtoResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('NodeCordonedSpecs.k8s.talos.dev', () => {
  it('has upstream’s type, namespace, columns and sensitivity, and is registered', () => {
    expect(NodeCordonedSpec.type).toBe('NodeCordonedSpecs.k8s.talos.dev');
    expect(NodeCordonedSpec.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(NodeCordonedSpec.definition.sensitivity).toBe('sensitive');
    expect(NodeCordonedSpec.definition.printColumns).toEqual([]);
    expect(K8S_TYPES).toContain(NodeCordonedSpec);
    expect(defaultRegistry.lookup(NodeCordonedSpec.type)).toBe(NodeCordonedSpec);
  });

  it('writes upstream’s YAML and proto fields, and survives the wire with either alone', () => {
    const r = NodeCordonedSpec.new(K8S_NAMESPACE, 'cordoned', {});
    const msg = toProtoResource(r);
    expect(msg.spec?.yaml_spec).toBe('{}\n');
    expect(Buffer.from(msg.spec?.proto_spec as Uint8Array).toString('hex')).toBe('');
    const back = decodeResource(encodeResource(r));
    expect(NodeCordonedSpec.is(back) && back.spec).toEqual(r.spec);
    const fromProto = fromProtoResource(toProtoResource(r, { withoutYAML: true }));
    expect(NodeCordonedSpec.is(fromProto) && fromProto.spec).toEqual(r.spec);
  });
});
