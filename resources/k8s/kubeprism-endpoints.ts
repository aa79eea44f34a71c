// KubePrismEndpoints.kubernetes.talos.dev (`k8s-cluster`): every address the node may reach the Kubernetes
// API at, the upstreams of its local load balancer (KubePrism).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { list, num, obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

export const KUBEPRISM_ENDPOINTS_ID = 'k8s-cluster';

/** KubePrismEndpoint is one API server: a host name or address, and its port. */
export interface KubePrismEndpoint {
  host: string;
  port: number;
}

export interface KubePrismEndpointsSpec {
  endpoints: KubePrismEndpoint[];
}

export const copyEndpoints = (e: readonly KubePrismEndpoint[]): KubePrismEndpoint[] =>
  e.map(({ host, port }) => ({ host, port }));

export const sameEndpoints = (a: readonly KubePrismEndpoint[], b: readonly KubePrismEndpoint[]): boolean =>
  a.length === b.length && a.every((x, i) => x.host === b[i]?.host && x.port === b[i]?.port);

/** endpointsOf reads a decoded (protobuf or YAML) list of endpoints; a missing one is none. */
export const endpointsOf = (v: unknown): KubePrismEndpoint[] =>
  list(v).map((e) => ({ host: str(obj(e).host), port: num(obj(e).port) }));

/** the protobuf schema of upstream's KubePrismEndpoint message, shared with KubePrismConfig */
export const ENDPOINT_SCHEMA = {
  host: { no: 1, kind: 'string' },
  port: { no: 2, kind: 'uint32' },
} as const;

export const KubePrismEndpoints = defineResource<KubePrismEndpointsSpec>({
  type: 'KubePrismEndpoints.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  printColumns: [
    { name: 'Hosts', jsonPath: '{.endpoints[*].host}' },
    { name: 'Ports', jsonPath: '{.endpoints[*].port}' },
  ],
  empty: () => ({ endpoints: [] }),
  copy: (s) => ({ endpoints: copyEndpoints(s.endpoints) }),
  equal: (a, b) => sameEndpoints(a.endpoints, b.endpoints),
  proto: { endpoints: { no: 1, kind: 'message', repeated: true, schema: ENDPOINT_SCHEMA } },
  fromProto: (v) => ({ endpoints: endpointsOf(v.endpoints) }),
  fromYAML: (v) => ({ endpoints: endpointsOf(obj(v).endpoints) }),
});
export type KubePrismEndpoints = ResourceOf<typeof KubePrismEndpoints>;
