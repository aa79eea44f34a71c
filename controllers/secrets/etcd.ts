// secrets.EtcdController: EtcdSecrets(secrets/etcd), etcd's server, peer and client certificates.
import {
  dnsNames,
  HOSTNAME_ID,
  HostnameStatus,
  type HostnameStatusSpec,
  NodeAddress,
  type NodeAddressSpec,
  nodeIPs,
} from '../../resources/network/index.js';
import {
  ETCD_ID,
  ETCD_ROOT_ID,
  Etcd,
  type EtcdCertsSpec,
  EtcdRoot,
  type EtcdRootSpec,
} from '../../resources/secrets/index.js';
import { type Controller, type ControllerRuntime, input, output } from '../../src/cosi/controller/index.js';
import { type EtcdNode, loadIssuer, profiles } from '../../src/pki/index.js';
import { certificateController } from './internal/certificate-controller.js';
import { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
import { SecretsError } from './internal/errors.js';
import { ensureLeaf } from './internal/leaf.js';
import { CERT_NODE_ADDRESS_ID, nodeIdentityInputs } from './internal/node.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.EtcdController';

/**
 * newEtcdController mints etcd's certificates from the etcd CA. Server and peer name the node, so a
 * hostname or address change re-issues them; the two client certificates do not depend on it.
 */
export function newEtcdController({ clock = systemSecretsClock }: SecretsControllerOptions = {}): Controller {
  return certificateController({
    name: NAME,
    inputs: [input(EtcdRoot, { id: ETCD_ROOT_ID }), ...nodeIdentityInputs],
    outputs: [output(Etcd, 'exclusive')],
    clock,
    reconcile,
  });
}

/** EtcdController runs on wall time. */
export const EtcdController = newEtcdController();

async function reconcile(
  rt: ControllerRuntime,
  clock: SecretsClock,
  signal: AbortSignal,
): Promise<(string | undefined)[]> {
  const root = await rt.getOrNull(EtcdRoot, ETCD_ROOT_ID, { signal });
  if (!root) {
    await destroyOwned(rt, Etcd, NAME, signal);
    return [];
  }
  const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
  const addresses = await rt.getOrNull(NodeAddress, CERT_NODE_ADDRESS_ID, { signal });
  if (!hostname || !addresses) return [];
  const current = await rt.getOrNull(Etcd, ETCD_ID, { signal });
  const node = etcdNodeOf(hostname.spec, addresses.spec);
  const next = await etcdCerts(root.spec, node, current?.spec, clock.now(), signal);
  await rt.modify(Etcd, ETCD_ID, () => next, { signal });
  return [next.etcd, next.etcdPeer, next.etcdAdmin, next.etcdAPIServer].map((p) => p?.crt);
}

/** etcdNodeOf is the identity etcd's certificates carry: hostname, FQDN and the node's addresses. */
export function etcdNodeOf(hostname: HostnameStatusSpec, addresses: NodeAddressSpec): EtcdNode {
  return { hostname: hostname.hostname, dnsNames: dnsNames(hostname), ipAddresses: nodeIPs(addresses) };
}

/** etcdCerts keeps or re-issues each of the four certificates on its own. */
export async function etcdCerts(
  root: EtcdRootSpec,
  node: EtcdNode,
  current: EtcdCertsSpec | undefined,
  now: Date,
  signal?: AbortSignal,
): Promise<EtcdCertsSpec> {
  const ref = EtcdRoot.pointer(ETCD_ROOT_ID);
  if (!root.etcdCA?.key) throw new SecretsError('missing-secret', ref, 'no etcd CA key');
  let issuer: ReturnType<typeof loadIssuer>;
  try {
    issuer = loadIssuer(root.etcdCA, 'etcdCA');
  } catch (cause) {
    throw new SecretsError('invalid-secret', ref, `etcdCA: ${(cause as Error).message}`, { cause });
  }
  const [etcd, etcdPeer, etcdAdmin, etcdAPIServer] = await Promise.all([
    ensureLeaf(current?.etcd, profiles.etcdServer(node), issuer, now, signal),
    ensureLeaf(current?.etcdPeer, profiles.etcdPeer(node), issuer, now, signal),
    ensureLeaf(current?.etcdAdmin, profiles.etcdClient('talos'), issuer, now, signal),
    ensureLeaf(current?.etcdAPIServer, profiles.etcdClient('kube-apiserver'), issuer, now, signal),
  ]);
  return { etcd, etcdPeer, etcdAdmin, etcdAPIServer };
}
