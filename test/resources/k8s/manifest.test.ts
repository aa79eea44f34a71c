// Manifests.kubernetes.talos.dev: upstream's type and namespace, and its YAML the list of objects, each
// object's keys in the order upstream's encoder writes them.
import { describe, expect, it } from 'vitest';
import { K8S_CONTROL_PLANE_NAMESPACE, K8S_TYPES, Manifest } from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

const secret = {
  kind: 'Secret',
  apiVersion: 'v1',
  metadata: { namespace: 'kube-system', name: 'bootstrap-token-abc' },
  stringData: { 'token-secret': 's', 'token-id': 'abc' },
};

describe('Manifests.kubernetes.talos.dev', () => {
  it('has upstream’s type and namespace, and is registered', () => {
    expect(Manifest.type).toBe('Manifests.kubernetes.talos.dev');
    expect(Manifest.defaultNamespace).toBe(K8S_CONTROL_PLANE_NAMESPACE);
    expect(K8S_CONTROL_PLANE_NAMESPACE).toBe('controlplane');
    expect(K8S_TYPES).toContain(Manifest);
    expect(defaultRegistry.lookup(Manifest.type)).toBe(Manifest);
  });

  it('renders its YAML as the list of objects with sorted keys, and reads it back', () => {
    const r = Manifest.new(K8S_CONTROL_PLANE_NAMESPACE, '00-kubelet-bootstrapping-token', {
      items: [secret],
    });
    expect(toProtoResource(r).spec?.yaml_spec).toBe(`- apiVersion: v1
  kind: Secret
  metadata:
    name: bootstrap-token-abc
    namespace: kube-system
  stringData:
    token-id: abc
    token-secret: s
`);
    const back = decodeResource(encodeResource(r));
    expect(Manifest.is(back) && back.spec).toEqual({ items: [secret] });
  });
});
