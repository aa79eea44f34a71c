// k8s.KubePrismConfigController: KubePrismConfig `k8s-loadbalancer-config`, where KubePrism listens
// (127.0.0.1 and machine.features.kubePrism.port) and the endpoints it balances across; none while the
// feature is off, and none until KubePrismEndpoints exists.
import {
  MACHINE_CONFIG_ID,
  MachineConfig,
  type MachineConfigSpec,
} from '../../resources/config/machine-config.js';
import {
  copyEndpoints,
  KUBEPRISM_CONFIG_ID,
  KUBEPRISM_ENDPOINTS_ID,
  KubePrismConfig,
  type KubePrismConfigSpec,
  type KubePrismEndpoint,
  KubePrismEndpoints,
} from '../../resources/k8s/index.js';
import { accessors, type Config, DEFAULT_KUBEPRISM_PORT, v1alpha1Of } from '../../src/config/index.js';
import { skipReconcile } from '../../src/cosi/controller/errors.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { input } from '../../src/cosi/controller/index.js';
import type { TypedResource } from '../../src/cosi/resource/typed.js';
import { configOf } from '../config/config-of.js';

export const KUBEPRISM_CONFIG_CONTROLLER = 'k8s.KubePrismConfigController';

/** KubePrism listens on loopback only: it serves the node's own kubelet and host-network pods. */
export const KUBEPRISM_HOST = '127.0.0.1';

export const KubePrismConfigController = transformController({
  name: KUBEPRISM_CONFIG_CONTROLLER,
  input: MachineConfig,
  output: KubePrismConfig,
  mapOptional: (res: TypedResource<MachineConfigSpec>) =>
    res.metadata.id === MACHINE_CONFIG_ID && kubePrismEnabled(configOf(res.spec))
      ? KUBEPRISM_CONFIG_ID
      : undefined,
  extraInputs: [input(KubePrismEndpoints, { id: KUBEPRISM_ENDPOINTS_ID })],
  transform: async (rt, cfg, out) => {
    const endpoints = await rt.getOrNull(KubePrismEndpoints, KUBEPRISM_ENDPOINTS_ID);
    if (!endpoints)
      throw skipReconcile('KubePrism endpoints resource not found; not creating KubePrism config');
    out.spec = kubePrismConfigOf(configOf(cfg.spec), endpoints.spec.endpoints);
  },
});

/** kubePrismEnabled: a machine section with machine.features.kubePrism.enabled. */
export const kubePrismEnabled = (cfg: Config): boolean =>
  v1alpha1Of(cfg)?.machine !== undefined && accessors(cfg).features().kubePrism?.enabled === true;

/** kubePrismConfigOf: loopback, the configured port (0 or unset means 7445), and the endpoints as found. */
export function kubePrismConfigOf(cfg: Config, endpoints: readonly KubePrismEndpoint[]): KubePrismConfigSpec {
  return {
    host: KUBEPRISM_HOST,
    port: accessors(cfg).features().kubePrism?.port || DEFAULT_KUBEPRISM_PORT,
    endpoints: copyEndpoints(endpoints),
  };
}
