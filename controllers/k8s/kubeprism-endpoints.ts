// k8s.KubePrismEndpointsController: KubePrismEndpoints `k8s-cluster`, the API servers KubePrism balances
// across: the cluster endpoint, and on a control plane its own API server on localhost. Upstream adds the
// control plane members found by discovery (cluster.Member); Keel has no discovery yet, so none come from it.
import { MachineConfig } from '../../resources/config/machine-config.js';
import { isControlPlane } from '../../resources/config/machine-type.js';
import {
  KUBEPRISM_ENDPOINTS_ID,
  type KubePrismEndpoint,
  KubePrismEndpoints,
} from '../../resources/k8s/index.js';
import { accessors, type Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { DEFAULT_LOCAL_API_SERVER_PORT } from '../secrets/root-kubernetes.js';

export const KUBEPRISM_ENDPOINTS_CONTROLLER = 'k8s.KubePrismEndpointsController';

/** Go's toPort: an endpoint URL without a port (or with a bad one) means 443, whatever its scheme */
const DEFAULT_ENDPOINT_PORT = 443;

export const KubePrismEndpointsController = transformController({
  name: KUBEPRISM_ENDPOINTS_CONTROLLER,
  input: MachineConfig,
  output: KubePrismEndpoints,
  mapOptional: activeConfigMap(KUBEPRISM_ENDPOINTS_ID, false),
  transform: (_rt, cfg, out) => {
    out.spec.endpoints = kubePrismEndpointsOf(configOf(cfg.spec));
  },
});

/** kubePrismEndpointsOf lists the cluster endpoint, then the local API server on a control plane. */
export function kubePrismEndpointsOf(cfg: Config): KubePrismEndpoint[] {
  const m = accessors(cfg);
  const endpoints: KubePrismEndpoint[] = [];
  const cluster = endpointOfURL(m.controlPlaneEndpoint() ?? '');
  if (cluster) endpoints.push(cluster);
  if (isControlPlane(m.machineType()))
    endpoints.push({
      host: 'localhost',
      port: m.cluster().controlPlane?.localAPIServerPort || DEFAULT_LOCAL_API_SERVER_PORT,
    });
  return endpoints;
}

/**
 * endpointOfURL takes host and port from a URL as Go's url.URL Hostname() and Port() do: an IPv6 host
 * without its brackets, and the port as written (a WHATWG URL would drop a scheme's default port).
 */
export function endpointOfURL(raw: string): KubePrismEndpoint | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::([^/?#]*))?/.exec(raw);
  if (!m) return undefined;
  const host = m[1]!.replace(/^\[(.*)\]$/, '$1');
  const port = /^\d{1,10}$/.test(m[2] ?? '') ? Number(m[2]) : Number.NaN;
  const fits = !Number.isNaN(port) && port <= 0xffff_ffff; // Go parses it as a uint32
  return { host, port: fits ? port : DEFAULT_ENDPOINT_PORT };
}
