// An object's key in the inventory ConfigMap, as upstream's cli-utils writes it, and its name in errors.
import { describe, expect, it } from 'vitest';
import {
  inventoryKey,
  objectName,
} from '../../../../../controllers/k8s/internal/manifest-apply/inventory-key.js';

describe('inventoryKey', () => {
  it('is namespace_name_group_kind, the core group empty', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: 'kube-system' },
    };
    expect(inventoryKey(svc)).toBe('kube-system_kube-dns__Service');
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-flannel', namespace: 'kube-system' },
    };
    expect(inventoryKey(ds)).toBe('kube-system_kube-flannel_apps_DaemonSet');
  });

  it('writes a colon in an RBAC name as a double underscore, and leaves cluster objects’ namespace empty', () => {
    const crb = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:kube-proxy' },
    };
    expect(inventoryKey(crb)).toBe('_system__kube-proxy_rbac.authorization.k8s.io_ClusterRoleBinding');
  });
});

describe('objectName', () => {
  it('is group/version/kind/name, as upstream logs it', () => {
    expect(objectName({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bootstrap-token-abc' } })).toBe(
      '/v1/Secret/bootstrap-token-abc',
    );
  });
});
