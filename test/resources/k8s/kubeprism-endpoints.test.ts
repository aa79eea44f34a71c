// KubePrismEndpoints.kubernetes.talos.dev: upstream's type, id, namespace and YAML, and its proto round trip.
import { describe, expect, it } from 'vitest';
import {
  K8S_NAMESPACE,
  K8S_TYPES,
  KUBEPRISM_ENDPOINTS_ID,
  KubePrismEndpoints,
} from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('KubePrismEndpoints.kubernetes.talos.dev', () => {
  it('has upstream’s type, id, namespace and columns, and is registered', () => {
    expect(KubePrismEndpoints.type).toBe('KubePrismEndpoints.kubernetes.talos.dev');
    expect(KUBEPRISM_ENDPOINTS_ID).toBe('k8s-cluster');
    expect(KubePrismEndpoints.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(KubePrismEndpoints.definition.printColumns.map((c) => c.jsonPath)).toEqual([
      '{.endpoints[*].host}',
      '{.endpoints[*].port}',
    ]);
    expect(K8S_TYPES).toContain(KubePrismEndpoints);
    expect(defaultRegistry.lookup(KubePrismEndpoints.type)).toBe(KubePrismEndpoints);
  });

  it('writes upstream’s YAML and survives the wire', () => {
    const r = KubePrismEndpoints.new(K8S_NAMESPACE, KUBEPRISM_ENDPOINTS_ID, {
      endpoints: [
        { host: 'cp.example.com', port: 6443 },
        { host: 'localhost', port: 6443 },
      ],
    });
    expect(toProtoResource(r).spec?.yaml_spec).toBe(
      'endpoints:\n    - host: cp.example.com\n      port: 6443\n    - host: localhost\n      port: 6443\n',
    );
    const back = decodeResource(encodeResource(r));
    expect(KubePrismEndpoints.is(back) && back.spec).toEqual(r.spec);
    const none = KubePrismEndpoints.new(K8S_NAMESPACE, KUBEPRISM_ENDPOINTS_ID);
    expect(toProtoResource(none).spec?.yaml_spec).toBe('endpoints: []\n');
  });
});
