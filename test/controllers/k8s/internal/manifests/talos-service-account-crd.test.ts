// 13-talos-service-account-crd.
import { describe, expect, it } from 'vitest';
import { talosServiceAccountCRD } from '../../../../../controllers/k8s/internal/manifests/talos-service-account-crd.js';

describe('the Talos ServiceAccount CRD', () => {
  it('defines talos.dev/v1alpha1 ServiceAccount (tsa) with roles and a failure reason', () => {
    const crd = talosServiceAccountCRD();
    expect(crd.metadata).toEqual({ name: 'serviceaccounts.talos.dev' });
    expect(crd.spec).toMatchObject({
      conversion: { strategy: 'None' },
      group: 'talos.dev',
      names: {
        kind: 'ServiceAccount',
        listKind: 'ServiceAccountList',
        plural: 'serviceaccounts',
        singular: 'serviceaccount',
        shortNames: ['tsa'],
      },
      scope: 'Namespaced',
    });
    expect(crd.spec.versions).toEqual([
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { roles: { type: 'array', items: { type: 'string' } } } },
              status: { type: 'object', properties: { failureReason: { type: 'string' } } },
            },
          },
        },
      },
    ]);
  });
});
