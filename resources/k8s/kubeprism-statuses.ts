// KubePrismStatuses.kubernetes.talos.dev (`k8s-loadbalancer`): the address KubePrism listens at, and
// whether any of its API servers is usable; present only while it runs.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { bool, obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

export const KUBEPRISM_STATUSES_ID = 'k8s-loadbalancer';

export interface KubePrismStatusesSpec {
  /** host:port, as Go's net.JoinHostPort writes it */
  host: string;
  healthy: boolean;
}

export const KubePrismStatuses = defineResource<KubePrismStatusesSpec>({
  type: 'KubePrismStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  printColumns: [
    { name: 'HOST', jsonPath: '{.host}' },
    { name: 'HEALTHY', jsonPath: '{.healthy}' },
  ],
  empty: () => ({ host: '', healthy: false }),
  copy: (s) => ({ ...s }),
  equal: (a, b) => a.host === b.host && a.healthy === b.healthy,
  proto: { host: { no: 1, kind: 'string' }, healthy: { no: 2, kind: 'bool' } },
  fromProto: (v) => ({ host: str(v.host), healthy: bool(v.healthy) }),
  fromYAML: (v) => ({ host: str(obj(v).host), healthy: bool(obj(v).healthy) }),
});
export type KubePrismStatuses = ResourceOf<typeof KubePrismStatuses>;
