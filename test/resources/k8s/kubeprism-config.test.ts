// KubePrismConfigs.kubernetes.talos.dev: upstream's type, id, namespace and YAML, and its proto round trip.
import { describe, expect, it } from 'vitest';
import {
  K8S_NAMESPACE,
  K8S_TYPES,
  KUBEPRISM_CONFIG_ID,
  KubePrismConfig,
} from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('KubePrismConfigs.kubernetes.talos.dev', () => {
  it('has upstream’s type, id, namespace and columns, and is registered', () => {
    expect(KubePrismConfig.type).toBe('KubePrismConfigs.kubernetes.talos.dev');
    expect(KUBEPRISM_CONFIG_ID).toBe('k8s-loadbalancer-config');
    expect(KubePrismConfig.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(KubePrismConfig.definition.printColumns.map((c) => c.name)).toEqual(['Host', 'Port', 'Endpoints']);
    expect(K8S_TYPES).toContain(KubePrismConfig);
    expect(defaultRegistry.lookup(KubePrismConfig.type)).toBe(KubePrismConfig);
  });

  it('writes upstream’s YAML and survives the wire', () => {
    const r = KubePrismConfig.new(K8S_NAMESPACE, KUBEPRISM_CONFIG_ID, {
      host: '127.0.0.1',
      port: 7445,
      endpoints: [{ host: 'fd00::1', port: 443 }],
    });
    expect(toProtoResource(r).spec?.yaml_spec).toBe(
      'host: 127.0.0.1\nport: 7445\nendpoints:\n    - host: fd00::1\n      port: 443\n',
    );
    const back = decodeResource(encodeResource(r));
    expect(KubePrismConfig.is(back) && back.spec).toEqual(r.spec);
  });
});
