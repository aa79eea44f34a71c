// secrets.APIController: ApiCertificates(secrets/api), apid's server and client certificates.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
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
import { accessors, type Config } from '../../src/config/index.js';
import {
  type Controller,
  type ControllerRuntime,
  defineController,
  input,
  type Logger,
  output,
} from '../../src/cosi/controller/index.js';
import {
  type CertificateInfo,
  checkKeyPair,
  halfLife,
  loadIssuer,
  newCSRAndKey,
  parseCertificate,
  profiles,
} from '../../src/pki/index.js';
import {
  type CertificateRequester,
  type IssuedCertificate,
  requestCertificate,
  TRUSTD_PORT,
} from '../../src/trustd/index.js';
import { configOf } from '../config/config-of.js';
import { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
import { SecretsError } from './internal/errors.js';
import { untilWokenUp } from './internal/interruptible.js';
import { ensureLeaf, type LeafTemplate, nextRenewalMs, reissueReason } from './internal/leaf.js';
import { renewalTimer } from './internal/refresh.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.APIController';

export interface APIControllerOptions extends SecretsControllerOptions {
  /** the port a worker asks trustd on at its control plane endpoints (upstream's constant 50001) */
  readonly trustdPort?: number;
  /** how a worker has its CSR signed: by trustd over gRPC, unless a test signs it in process */
  readonly requestCertificate?: CertificateRequester;
}

/** APIEnv is what a reconcile needs besides the runtime: the clock, and a worker's way to trustd. */
interface APIEnv {
  readonly clock: SecretsClock;
  readonly port: number;
  readonly request: CertificateRequester;
  readonly logger: Logger;
}

/**
 * newAPIController mints apid's certificates: on control plane nodes from the OS CA and CertSANs(api),
 * in maintenance mode (role unknown) a server certificate from the maintenance CA with client
 * verification off. On workers, which hold no CA key, the server certificate is one trustd on a control
 * plane signs (no client certificate: a worker's apid forwards nowhere, as upstream). Each is kept until
 * its SANs change or it reaches half its 24 h life.
 */
export function newAPIController({
  clock = systemSecretsClock,
  trustdPort = TRUSTD_PORT,
  requestCertificate: request = requestCertificate,
}: APIControllerOptions = {}): Controller {
  return defineController({
    name: NAME,
    inputs: [
      input(MachineType, { id: MACHINE_TYPE_ID }),
      input(OSRoot, { id: OS_ROOT_ID }),
      input(CertSAN, { id: CERT_SAN_API_ID }),
      input(MaintenanceRoot, { id: MAINTENANCE_ROOT_ID }),
      input(CertSAN, { id: CERT_SAN_MAINTENANCE_ID }),
      // a worker's control plane endpoints (upstream reads k8s.Endpoint, which Keel does not have yet)
      input(MachineConfig, { id: MACHINE_CONFIG_ID }),
    ],
    outputs: [output(API, 'exclusive')],
    async run(rt, { signal, logger }) {
      const timer = renewalTimer(rt, clock);
      const env: APIEnv = { clock, port: trustdPort, request, logger };
      try {
        for await (const _ of rt.events(signal)) {
          timer.armIn(await reconcile(rt, env, signal));
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

/** reconcile returns how long until the certificates now held need renewing, for the timer. */
async function reconcile(
  rt: ControllerRuntime,
  env: APIEnv,
  signal: AbortSignal,
): Promise<number | undefined> {
  const { clock } = env;
  const machineType = await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal });
  const role = machineType?.spec.type;
  if (role === 'unknown') return nextRenewalMs(await reconcileMaintenance(rt, clock, signal), clock.now());
  const root = await rt.getOrNull(OSRoot, OS_ROOT_ID, { signal });
  if (!role || !root) {
    await destroyOwned(rt, API, NAME, signal);
    return undefined;
  }
  if (!isControlPlane(role)) return reconcileWorker(rt, env, root.spec, signal);
  const sans = await rt.getOrNull(CertSAN, CERT_SAN_API_ID, { signal });
  if (!sans) return undefined;
  const current = await rt.getOrNull(API, API_ID, { signal });
  const next = await apiCerts(root.spec, sans.spec, current?.spec, clock.now(), signal);
  await rt.modify(API, API_ID, () => next, { signal });
  return nextRenewalMs([next.server?.crt, next.client?.crt], clock.now());
}

/**
 * reconcileWorker keeps the certificate trustd signed while it may stay; otherwise it makes a key and a
 * CSR with the apid SANs and asks the control planes, until one answers or an input changes.
 */
async function reconcileWorker(
  rt: ControllerRuntime,
  env: APIEnv,
  root: OSRootSpec,
  signal: AbortSignal,
): Promise<number | undefined> {
  const sans = await rt.getOrNull(CertSAN, CERT_SAN_API_ID, { signal });
  if (!sans) return undefined;
  const ca = workerCA(root);
  const want = profiles.apidServer(
    { dnsNames: sans.spec.dnsNames, ipAddresses: sans.spec.ips },
    sans.spec.fqdn,
  );
  const current = await rt.getOrNull(API, API_ID, { signal });
  if (current?.spec.server && keepsWorkerCerts(current.spec, want, ca, env.clock.now()))
    return workerRenewalMs(current.spec.server.crt, env.clock.now());
  const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
  const endpoints = cfg ? trustdEndpointsOf(configOf(cfg.spec)) : [];
  if (endpoints.length === 0) return undefined; // no control plane named yet: wait for the config
  const { csr, key } = await newCSRAndKey(ca, {
    commonName: sans.spec.fqdn,
    dnsNames: sans.spec.dnsNames,
    ipAddresses: sans.spec.ips,
    signal,
  });
  const issued = await untilWokenUp(rt, signal, (s) =>
    env.request({
      endpoints,
      port: env.port,
      token: root.token,
      acceptedCAs: root.acceptedCAs.map((c) => c.crt).join('\n'),
      csr,
      signal: s,
      onRetry: (e, ms) =>
        env.logger.warn('no control plane signed the apid certificate yet', {
          endpoints,
          error: e.message,
          retryInSeconds: Math.round(ms / 1000),
        }),
    }),
  );
  if (!issued.done) return undefined; // an input changed: the loop runs again with it
  const next = workerAPICerts(issued.value, key);
  await rt.modify(API, API_ID, () => next, { signal });
  env.logger.info('apid certificate signed by trustd', { endpoints });
  return workerRenewalMs(next.server!.crt, env.clock.now());
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

/** trustdEndpointsOf names the control planes a worker asks: the cluster endpoint's host. */
export function trustdEndpointsOf(cfg: Config): string[] {
  const endpoint = accessors(cfg).controlPlaneEndpoint();
  if (!endpoint) return [];
  let host: string;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return [];
  }
  host = host.replace(/^\[(.*)\]$/, '$1');
  return host ? [host] : [];
}

/** workerCA is the CA a worker's key follows and its certificate chains to: the last accepted one, as upstream. */
export function workerCA(root: OSRootSpec): CertificateInfo {
  const ref = OSRoot.pointer(OS_ROOT_ID);
  const last = root.acceptedCAs.at(-1);
  if (!last) throw new SecretsError('missing-secret', ref, 'no accepted CAs');
  try {
    return parseCertificate(last.crt, 'acceptedCAs');
  } catch (cause) {
    throw new SecretsError('invalid-secret', ref, `acceptedCAs: ${(cause as Error).message}`, { cause });
  }
}

/**
 * keepsWorkerCerts: the held set is a worker's (server only, clients verified) and its server certificate
 * may stay. It was signed on a control plane's clock, so a start a little ahead of this node's is no
 * reason to ask again (that would ask in a loop until the clocks agree); only the half-life is.
 */
export function keepsWorkerCerts(
  current: APICertsSpec,
  want: LeafTemplate,
  ca: CertificateInfo,
  now: Date,
): boolean {
  if (!current.server || current.client !== null || current.skipVerifyingClientCert) return false;
  const why = reissueReason(current.server, want, ca, now);
  return why === undefined || (why === 'renewal' && now < halfLife(current.server.crt));
}

/** workerRenewalMs is the time to the half-life, the re-request point (upstream's 12 h ticker). */
export const workerRenewalMs = (crt: string, now: Date): number =>
  Math.max(0, halfLife(crt).getTime() - now.getTime());

/** workerAPICerts is what a worker's apid serves: trustd's certificate for our key, its CAs as accepted. */
export function workerAPICerts(issued: IssuedCertificate, key: string): APICertsSpec {
  try {
    checkKeyPair({ crt: issued.crt, key }, 'trustd certificate');
  } catch (cause) {
    throw new SecretsError('invalid-secret', API.pointer(API_ID), (cause as Error).message, { cause });
  }
  return {
    acceptedCAs: [{ crt: issued.ca }],
    client: null,
    server: { crt: issued.crt, key },
    skipVerifyingClientCert: false,
  };
}
