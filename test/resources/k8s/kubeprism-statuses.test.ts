// KubePrismStatuses.kubernetes.talos.dev: upstream's type, id, namespace and YAML, and its proto round trip.
import { describe, expect, it } from 'vitest';
import {
  K8S_NAMESPACE,
  K8S_TYPES,
  KUBEPRISM_STATUSES_ID,
  KubePrismStatuses,
} from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('KubePrismStatuses.kubernetes.talos.dev', () => {
  it('has upstream’s type, id, namespace and columns, and is registered', () => {
    expect(KubePrismStatuses.type).toBe('KubePrismStatuses.kubernetes.talos.dev');
    expect(KUBEPRISM_STATUSES_ID).toBe('k8s-loadbalancer');
    expect(KubePrismStatuses.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(KubePrismStatuses.definition.printColumns.map((c) => c.name)).toEqual(['HOST', 'HEALTHY']);
    expect(K8S_TYPES).toContain(KubePrismStatuses);
    expect(defaultRegistry.lookup(KubePrismStatuses.type)).toBe(KubePrismStatuses);
  });

  it('writes upstream’s YAML and survives the wire', () => {
    for (const healthy of [true, false]) {
      const r = KubePrismStatuses.new(K8S_NAMESPACE, KUBEPRISM_STATUSES_ID, {
        host: '127.0.0.1:7445',
        healthy,
      });
      expect(toProtoResource(r).spec?.yaml_spec).toBe(`host: 127.0.0.1:7445\nhealthy: ${healthy}\n`);
      const back = decodeResource(encodeResource(r));
      expect(KubePrismStatuses.is(back) && back.spec).toEqual(r.spec);
    }
  });
});
