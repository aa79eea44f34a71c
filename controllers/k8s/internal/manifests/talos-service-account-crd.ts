// 13-talos-service-account-crd: the CRD of talos.dev/v1alpha1 ServiceAccount, through which a pod asks for
// Talos API credentials (machine.features.kubernetesTalosAPIAccess); its status says why one was refused.
import type { CustomResourceDefinition } from './types.js';

const GROUP = 'talos.dev';
const SINGULAR = 'serviceaccount';
const PLURAL = `${SINGULAR}s`;
const KIND = 'ServiceAccount';

export const talosServiceAccountCRD = (): CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    conversion: { strategy: 'None' },
    group: GROUP,
    names: { kind: KIND, listKind: `${KIND}List`, plural: PLURAL, singular: SINGULAR, shortNames: ['tsa'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { roles: { type: 'array', items: { type: 'string' } } },
              },
              status: { type: 'object', properties: { failureReason: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
});
