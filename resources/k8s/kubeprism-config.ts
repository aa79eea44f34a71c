// KubePrismConfigs.kubernetes.talos.dev (`k8s-loadbalancer-config`): where KubePrism listens and the API
// servers it balances across; present only while machine.features.kubePrism is enabled.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { num, obj, str } from '../network/yaml-read.js';
import {
  copyEndpoints,
  ENDPOINT_SCHEMA,
  endpointsOf,
  type KubePrismEndpoint,
  sameEndpoints,
} from './kubeprism-endpoints.js';
import { K8S_NAMESPACE } from './namespace.js';

export const KUBEPRISM_CONFIG_ID = 'k8s-loadbalancer-config';

export interface KubePrismConfigSpec {
  host: string;
  port: number;
  endpoints: KubePrismEndpoint[];
}

const specOf = (o: Record<string, unknown>): KubePrismConfigSpec => ({
  host: str(o.host),
  port: num(o.port),
  endpoints: endpointsOf(o.endpoints),
});

export const KubePrismConfig = defineResource<KubePrismConfigSpec>({
  type: 'KubePrismConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  printColumns: [
    { name: 'Host', jsonPath: '{.host}' },
    { name: 'Port', jsonPath: '{.port}' },
    { name: 'Endpoints', jsonPath: '{.endpoints}' },
  ],
  empty: () => ({ host: '', port: 0, endpoints: [] }),
  copy: (s) => ({ host: s.host, port: s.port, endpoints: copyEndpoints(s.endpoints) }),
  equal: (a, b) => a.host === b.host && a.port === b.port && sameEndpoints(a.endpoints, b.endpoints),
  proto: {
    host: { no: 1, kind: 'string' },
    port: { no: 2, kind: 'int64' },
    endpoints: { no: 3, kind: 'message', repeated: true, schema: ENDPOINT_SCHEMA },
  },
  fromProto: (v) => specOf(v),
  fromYAML: (v) => specOf({ ...obj(v) }),
});
export type KubePrismConfig = ResourceOf<typeof KubePrismConfig>;
