// ManifestStatuses.kubernetes.talos.dev: upstream's type, id, namespace and YAML, and its proto round trip.
import { describe, expect, it } from 'vitest';
import {
  K8S_CONTROL_PLANE_NAMESPACE,
  K8S_TYPES,
  MANIFEST_STATUS_ID,
  ManifestStatus,
} from '../../../resources/k8s/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('ManifestStatuses.kubernetes.talos.dev', () => {
  it('has upstream’s type, id and namespace, and is registered', () => {
    expect(ManifestStatus.type).toBe('ManifestStatuses.kubernetes.talos.dev');
    expect(MANIFEST_STATUS_ID).toBe('manifests');
    expect(ManifestStatus.defaultNamespace).toBe(K8S_CONTROL_PLANE_NAMESPACE);
    expect(K8S_TYPES).toContain(ManifestStatus);
    expect(defaultRegistry.lookup(ManifestStatus.type)).toBe(ManifestStatus);
  });

  it('writes upstream’s YAML (yaml.v3 indents a list by four) and survives the wire', () => {
    const r = ManifestStatus.new(K8S_CONTROL_PLANE_NAMESPACE, MANIFEST_STATUS_ID, {
      manifestsApplied: ['00-kubelet-bootstrapping-token', '05-flannel'],
    });
    expect(toProtoResource(r).spec?.yaml_spec).toBe(
      'manifestsApplied:\n    - 00-kubelet-bootstrapping-token\n    - 05-flannel\n',
    );
    const back = decodeResource(encodeResource(r));
    expect(ManifestStatus.is(back) && back.spec).toEqual(r.spec);
  });
});
