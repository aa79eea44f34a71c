// From apiVersion and kind to a resource path, as data: the group split, the discovery entry picked (never
// a subresource), and the path by scope.
import { describe, expect, it } from 'vitest';
import { findResource, groupVersionPath, gvkOf, resourcePath } from '../../src/k8s/index.js';

describe('gvkOf', () => {
  it('splits a group from its version; the core group has none', () => {
    expect(gvkOf({ apiVersion: 'apps/v1', kind: 'DaemonSet' })).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'DaemonSet',
    });
    expect(gvkOf({ apiVersion: 'v1', kind: 'Service' })).toEqual({
      group: '',
      version: 'v1',
      kind: 'Service',
    });
  });
});

describe('findResource', () => {
  const apps = [
    { name: 'deployments', kind: 'Deployment', namespaced: true },
    { name: 'deployments/scale', kind: 'Scale', namespaced: true },
    { name: 'daemonsets', kind: 'DaemonSet', namespaced: true },
  ];
  it('picks the kind’s resource and skips subresources', () => {
    expect(findResource(apps, 'DaemonSet')?.name).toBe('daemonsets');
    expect(findResource([...apps.slice(1), apps[0]!], 'Scale')).toBeUndefined();
    expect(findResource(apps, 'CronJob')).toBeUndefined();
  });
});

describe('paths', () => {
  it('puts the core group under /api and the others under /apis', () => {
    expect(groupVersionPath('', 'v1')).toBe('/api/v1');
    expect(groupVersionPath('rbac.authorization.k8s.io', 'v1')).toBe('/apis/rbac.authorization.k8s.io/v1');
  });
  it('scopes a namespaced object by its namespace, a cluster one not', () => {
    const ds = {
      gvk: { group: 'apps', version: 'v1', kind: 'DaemonSet' },
      resource: 'daemonsets',
      namespaced: true,
    };
    expect(resourcePath(ds, 'kube-system', 'kube-flannel')).toBe(
      '/apis/apps/v1/namespaces/kube-system/daemonsets/kube-flannel',
    );
    expect(resourcePath(ds, 'kube-system')).toBe('/apis/apps/v1/namespaces/kube-system/daemonsets');
    const crb = {
      gvk: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding' },
      resource: 'clusterrolebindings',
      namespaced: false,
    };
    expect(resourcePath(crb, undefined, 'system:a')).toBe(
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system%3Aa',
    );
  });
});
