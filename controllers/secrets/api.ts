// secrets.APIController: ApiCertificates(secrets/api), apid's server and client certificates.
import { isControlPlane, MACHINE_TYPE_ID, MachineType } from '../../resources/config/machine-type.js';
import {
  API,
  API_ID,
  type APICertsSpec,
  CERT_SAN_API_ID,
  CERT_SAN_MAINTENANCE_ID,
  CertSAN,
  type CertSANSpec,
  MAINTENANCE_ROOT_ID,
  MaintenanceRoot,
  type MaintenanceRootSpec,
  OS_ROOT_ID,
  OSRoot,
  type OSRootSpec,
} from '../../resources/secrets/index.js';
import {
  type Controller,
  type ControllerRuntime,
  defineController,
  input,
  output,
} from '../../src/cosi/controller/index.js';
import { loadIssuer, profiles } from '../../src/pki/index.js';
import { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
import { SecretsError } from './internal/errors.js';
import { ensureLeaf } from './internal/leaf.js';
import { renewalTimer } from './internal/refresh.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.APIController';

/**
 * newAPIController mints apid's certificates: on control plane nodes from the OS CA and CertSANs(api),
 * in maintenance mode (role unknown) a server certificate from the maintenance CA with client
 * verification off. Each is kept until its SANs change or it reaches half its 24 h life. Workers get
 * theirs from trustd, which is not wired here.
 */
export function newAPIController({ clock = systemSecretsClock }: SecretsControllerOptions = {}): Controller {
  return defineController({
    name: NAME,
    inputs: [
      input(MachineType, { id: MACHINE_TYPE_ID }),
      input(OSRoot, { id: OS_ROOT_ID }),
      input(CertSAN, { id: CERT_SAN_API_ID }),
      input(MaintenanceRoot, { id: MAINTENANCE_ROOT_ID }),
      input(CertSAN, { id: CERT_SAN_MAINTENANCE_ID }),
    ],
    outputs: [output(API, 'exclusive')],
    async run(rt, { signal }) {
      const timer = renewalTimer(rt, clock);
      try {
        for await (const _ of rt.events(signal)) {
          const held = await reconcile(rt, clock, signal);
          timer.arm(held);
          rt.resetBackoff();
        }
      } finally {
        timer.stop();
      }
    },
  });
}

/** APIController runs on wall time. */
export const APIController = newAPIController();

/** reconcile returns the certificates now held, for the renewal timer. */
async function reconcile(
  rt: ControllerRuntime,
  clock: SecretsClock,
  signal: AbortSignal,
): Promise<(string | undefined)[]> {
  const machineType = await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal });
  const role = machineType?.spec.type;
  if (role === 'unknown') return reconcileMaintenance(rt, clock, signal);
  const root = await rt.getOrNull(OSRoot, OS_ROOT_ID, { signal });
  if (!role || !isControlPlane(role) || !root) {
    await destroyOwned(rt, API, NAME, signal);
    return [];
  }
  const sans = await rt.getOrNull(CertSAN, CERT_SAN_API_ID, { signal });
  if (!sans) return [];
  const current = await rt.getOrNull(API, API_ID, { signal });
  const next = await apiCerts(root.spec, sans.spec, current?.spec, clock.now(), signal);
  await rt.modify(API, API_ID, () => next, { signal });
  return [next.server?.crt, next.client?.crt];
}

async function reconcileMaintenance(
  rt: ControllerRuntime,
  clock: SecretsClock,
  signal: AbortSignal,
): Promise<(string | undefined)[]> {
  const root = await rt.getOrNull(MaintenanceRoot, MAINTENANCE_ROOT_ID, { signal });
  const sans = await rt.getOrNull(CertSAN, CERT_SAN_MAINTENANCE_ID, { signal });
  if (!root?.spec.ca || !sans) return [];
  const current = await rt.getOrNull(API, API_ID, { signal });
  const next = await maintenanceAPICerts(root.spec, sans.spec, current?.spec, clock.now(), signal);
  await rt.modify(API, API_ID, () => next, { signal });
  return [next.server?.crt];
}

/** apiCerts keeps or re-issues the server (CN=FQDN, SANs) and client (os:impersonator) certificates. */
export async function apiCerts(
  root: OSRootSpec,
  sans: CertSANSpec,
  current: APICertsSpec | undefined,
  now: Date,
  signal?: AbortSignal,
): Promise<APICertsSpec> {
  const issuer = osIssuer(root);
  const san = { dnsNames: sans.dnsNames, ipAddresses: sans.ips };
  const [server, client] = await Promise.all([
    ensureLeaf(current?.server, profiles.apidServer(san, sans.fqdn), issuer, now, signal),
    ensureLeaf(current?.client, profiles.apidClient(sans.fqdn), issuer, now, signal),
  ]);
  return { acceptedCAs: root.acceptedCAs, client, server, skipVerifyingClientCert: false };
}

/**
 * maintenanceAPICerts: a server certificate only, CN maintenance-service.talos.dev, from the per-boot
 * maintenance CA; clients are not verified, as an unconfigured node has no CA to check them against.
 */
export async function maintenanceAPICerts(
  root: MaintenanceRootSpec,
  sans: CertSANSpec,
  current: APICertsSpec | undefined,
  now: Date,
  signal?: AbortSignal,
): Promise<APICertsSpec> {
  const ref = MaintenanceRoot.pointer(MAINTENANCE_ROOT_ID);
  if (!root.ca?.key) throw new SecretsError('missing-secret', ref, 'no maintenance CA');
  let issuer: ReturnType<typeof loadIssuer>;
  try {
    issuer = loadIssuer(root.ca, 'ca');
  } catch (cause) {
    throw new SecretsError('invalid-secret', ref, `ca: ${(cause as Error).message}`, { cause });
  }
  const want = profiles.apidServer({ dnsNames: sans.dnsNames, ipAddresses: sans.ips }, sans.fqdn);
  const server = await ensureLeaf(current?.server, want, issuer, now, signal);
  return { acceptedCAs: [], client: null, server, skipVerifyingClientCert: true };
}

/** osIssuer loads the OS CA; a control plane node without its key cannot issue. */
export function osIssuer(root: OSRootSpec) {
  const ref = OSRoot.pointer(OS_ROOT_ID);
  if (!root.issuingCA)
    throw new SecretsError('missing-secret', ref, 'no issuing CA (machine.ca.key is empty)');
  try {
    return loadIssuer(root.issuingCA, 'issuingCA');
  } catch (cause) {
    throw new SecretsError('invalid-secret', ref, `issuingCA: ${(cause as Error).message}`, { cause });
  }
}
