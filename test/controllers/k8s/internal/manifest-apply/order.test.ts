// The apply order, as upstream's: namespaces by name, then CRDs by name, then the rest as listed.
import { describe, expect, it } from 'vitest';
import {
  applyOrder,
  isCRD,
  isNamespace,
} from '../../../../../controllers/k8s/internal/manifest-apply/order.js';

const o = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, metadata: { name } });
const names = (xs: Record<string, unknown>[]) => xs.map((x) => (x.metadata as { name: string }).name);

describe('applyOrder', () => {
  it('puts namespaces first, then CRDs, each by name, and keeps the rest in order', () => {
    const objects = [
      o('apps/v1', 'DaemonSet', 'z-ds'),
      o('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
      o('v1', 'Namespace', 'zeta'),
      o('v1', 'ServiceAccount', 'a-sa'),
      o('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'gadgets.example.com'),
      o('v1', 'Namespace', 'alpha'),
      o('rbac.authorization.k8s.io/v1', 'ClusterRole', 'm-role'),
    ];
    expect(names(applyOrder(objects))).toEqual([
      'alpha',
      'zeta',
      'gadgets.example.com',
      'widgets.example.com',
      'z-ds',
      'a-sa',
      'm-role',
    ]);
    // a copy: the manifests' own list is left as it was
    expect(names(objects)[0]).toBe('z-ds');
  });

  it('knows a namespace by v1 and a CRD by its group, as upstream', () => {
    expect(isNamespace(o('v1', 'Namespace', 'x'))).toBe(true);
    expect(isNamespace(o('example.com/v2', 'Namespace', 'x'))).toBe(false);
    expect(isCRD(o('apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition', 'x'))).toBe(true);
    expect(isCRD(o('example.com/v1', 'CustomResourceDefinition', 'x'))).toBe(false);
  });
});
