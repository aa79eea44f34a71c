// secrets.TrustdController: TrustdCertificates(secrets/trustd), trustd's serving certificate.
import { isControlPlane, MACHINE_TYPE_ID, MachineType } from '../../resources/config/machine-type.js';
import {
  CERT_SAN_API_ID,
  CertSAN,
  type CertSANSpec,
  OS_ROOT_ID,
  OSRoot,
  type OSRootSpec,
  TRUSTD_ID,
  Trustd,
  type TrustdCertsSpec,
} from '../../resources/secrets/index.js';
import { type Controller, type ControllerRuntime, input, output } from '../../src/cosi/controller/index.js';
import { profiles } from '../../src/pki/index.js';
import { osIssuer } from './api.js';
import { certificateController } from './internal/certificate-controller.js';
import { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
import { ensureLeaf } from './internal/leaf.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.TrustdController';

/** newTrustdController mints trustd's certificate on control plane nodes, with apid's SAN set. */
export function newTrustdController({
  clock = systemSecretsClock,
}: SecretsControllerOptions = {}): Controller {
  return certificateController({
    name: NAME,
    inputs: [
      input(MachineType, { id: MACHINE_TYPE_ID }),
      input(OSRoot, { id: OS_ROOT_ID }),
      input(CertSAN, { id: CERT_SAN_API_ID }),
    ],
    outputs: [output(Trustd, 'exclusive')],
    clock,
    reconcile,
  });
}

/** TrustdController runs on wall time. */
export const TrustdController = newTrustdController();

async function reconcile(rt: ControllerRuntime, clock: SecretsClock, signal: AbortSignal): Promise<string[]> {
  const machineType = await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal });
  const root = await rt.getOrNull(OSRoot, OS_ROOT_ID, { signal });
  // trustd runs on control plane nodes only
  if (!machineType || !isControlPlane(machineType.spec.type) || !root) {
    await destroyOwned(rt, Trustd, NAME, signal);
    return [];
  }
  const sans = await rt.getOrNull(CertSAN, CERT_SAN_API_ID, { signal });
  if (!sans) return [];
  const current = await rt.getOrNull(Trustd, TRUSTD_ID, { signal });
  const next = await trustdCerts(root.spec, sans.spec, current?.spec, clock.now(), signal);
  await rt.modify(Trustd, TRUSTD_ID, () => next, { signal });
  return next.server ? [next.server.crt] : [];
}

/** trustdCerts keeps or re-issues the server certificate (serverAuth, keyEncipherment, 24 h). */
export async function trustdCerts(
  root: OSRootSpec,
  sans: CertSANSpec,
  current: TrustdCertsSpec | undefined,
  now: Date,
  signal?: AbortSignal,
): Promise<TrustdCertsSpec> {
  const want = profiles.trustdServer({ dnsNames: sans.dnsNames, ipAddresses: sans.ips }, sans.fqdn);
  const server = await ensureLeaf(current?.server, want, osIssuer(root), now, signal);
  return { acceptedCAs: root.acceptedCAs, server };
}
