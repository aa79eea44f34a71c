// SecretStatuses.kubernetes.talos.dev (`static-pods`, controlplane): the control plane's secrets are on
// disk for its static pods; the version changes with them, and the pods' annotation with it.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const STATIC_POD_SECRETS_STATIC_POD_ID = 'static-pods';

export interface SecretsStatusSpec {
  ready: boolean;
  version: string;
}

export const SecretsStatus = defineResource<SecretsStatusSpec>({
  type: 'SecretStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  printColumns: [
    { name: 'Ready', jsonPath: '{.ready}' },
    { name: 'Secrets Version', jsonPath: '{.version}' },
  ],
  empty: () => ({ ready: false, version: '' }),
  copy: (s) => ({ ready: s.ready, version: s.version }),
  equal: (a, b) => a.ready === b.ready && a.version === b.version,
  proto: { ready: { no: 1, kind: 'bool' }, version: { no: 2, kind: 'string' } },
  fromProto: (v) => ({ ready: v.ready === true, version: String(v.version ?? '') }),
  fromYAML: (v) => ({ ready: obj(v).ready === true, version: str(obj(v).version) }),
});
export type SecretsStatus = ResourceOf<typeof SecretsStatus>;
