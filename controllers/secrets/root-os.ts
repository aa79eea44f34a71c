// secrets.RootOSController: OSRootSecrets(secrets/os) from the machine config, on every node.
import { MachineConfig } from '../../resources/config/machine-config.js';
import { isIP, OS_ROOT_ID, OSRoot, type OSRootSpec } from '../../resources/secrets/index.js';
import { accessors, type Config, v1alpha1Of } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { pemCerts, pemPair } from './internal/config.js';

/** The in-cluster service through which pods reach the Talos API (features.kubernetesTalosAPIAccess). */
export const KUBERNETES_TALOS_API_SERVICE = 'talos';
export const KUBERNETES_TALOS_API_NAMESPACE = 'default';

/** RootOSController derives the OS root secrets; a worker's config has no CA key, so no issuing CA. */
export const RootOSController = transformController({
  name: 'secrets.RootOSController',
  input: MachineConfig,
  output: OSRoot,
  mapOptional: activeConfigMap(OS_ROOT_ID, false),
  transform: (_rt, cfg, out) => {
    Object.assign(out.spec, osRootOf(configOf(cfg.spec)));
  },
});

/** osRootOf is the OS root of a config: CAs, certSANs split into IPs and names, the trustd token. */
export function osRootOf(cfg: Config): OSRootSpec {
  const m = accessors(cfg);
  const ca = pemPair(m.osCA());
  const acceptedCAs = pemCerts(v1alpha1Of(cfg)?.machine?.acceptedCAs);
  if (ca) acceptedCAs.push({ crt: ca.crt });
  const sans = m.certSANs();
  const dns = sans.filter((s) => !isIP(s));
  if (m.features().kubernetesTalosAPIAccess?.enabled)
    dns.push(
      KUBERNETES_TALOS_API_SERVICE,
      `${KUBERNETES_TALOS_API_SERVICE}.${KUBERNETES_TALOS_API_NAMESPACE}`,
    );
  return {
    // the worker config carries the CA certificate only: an incomplete CA cannot issue
    issuingCA: ca?.key ? ca : null,
    acceptedCAs,
    certSANIPs: sans.filter(isIP),
    certSANDNSNames: dns,
    token: m.token() ?? '',
  };
}
