// NodeAnnotationSpecs.k8s.talos.dev: upstream's type, namespace, columns and sensitivity, its YAML, and its proto fields by number.
import { describe, expect, it } from 'vitest';
import { K8S_NAMESPACE, K8S_TYPES, NodeAnnotationSpec } from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  fromProtoResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('NodeAnnotationSpecs.k8s.talos.dev', () => {
  it('has upstream’s type, namespace, columns and sensitivity, and is registered', () => {
    expect(NodeAnnotationSpec.type).toBe('NodeAnnotationSpecs.k8s.talos.dev');
    expect(NodeAnnotationSpec.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(NodeAnnotationSpec.definition.sensitivity).toBe('sensitive');
    expect(NodeAnnotationSpec.definition.printColumns).toEqual([{ name: 'Value', jsonPath: '{.value}' }]);
    expect(K8S_TYPES).toContain(NodeAnnotationSpec);
    expect(defaultRegistry.lookup(NodeAnnotationSpec.type)).toBe(NodeAnnotationSpec);
  });

  it('writes upstream’s YAML and proto fields, and survives the wire with either alone', () => {
    const r = NodeAnnotationSpec.new(K8S_NAMESPACE, 'note', { key: 'k', value: 'v' });
    const msg = toProtoResource(r);
    expect(msg.spec?.yaml_spec).toBe('key: k\nvalue: v\n');
    expect(Buffer.from(msg.spec?.proto_spec as Uint8Array).toString('hex')).toBe('0a016b120176');
    const back = decodeResource(encodeResource(r));
    expect(NodeAnnotationSpec.is(back) && back.spec).toEqual(r.spec);
    const fromProto = fromProtoResource(toProtoResource(r, { withoutYAML: true }));
    expect(NodeAnnotationSpec.is(fromProto) && fromProto.spec).toEqual(r.spec);
  });
});
