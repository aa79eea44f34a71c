// StaticPodServerStatuses.kubernetes.talos.dev (`static-pod-server-status`): where the static pod server
// listens, the kubelet's staticPodURL.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

export const STATIC_POD_SERVER_STATUS_ID = 'static-pod-server-status';

export interface StaticPodServerStatusSpec {
  url: string;
}

export const StaticPodServerStatus = defineResource<StaticPodServerStatusSpec>({
  type: 'StaticPodServerStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  empty: () => ({ url: '' }),
  copy: (s) => ({ url: s.url }),
  equal: (a, b) => a.url === b.url,
  proto: { url: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ url: String(v.url ?? '') }),
  fromYAML: (v) => ({ url: str(obj(v).url) }),
});
export type StaticPodServerStatus = ResourceOf<typeof StaticPodServerStatus>;
