// In container mode no network controller runs (it would reconfigure the host): the node's name and
// addresses are the host's, read once, so the certificate controllers have their inputs.
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import {
  filteredNodeAddressID,
  HOSTNAME_ID,
  HostnameStatus,
  NETWORK_NAMESPACE,
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NODE_ADDRESS_FILTER_NO_K8S,
  NODE_ADDRESS_ROUTED_ID,
  NodeAddress,
} from '../../../resources/network/index.js';
import type { State } from '../../cosi/state/state.js';

export const HOST_IDENTITY_OWNER = 'container.HostIdentity';

/** hostAddresses lists the host's addresses as prefixes, loopback included (the API is reached on it). */
export function hostAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? [])
      if (!a.address.startsWith('fe80')) out.push(a.cidr ?? `${a.address}/${a.family === 'IPv4' ? 32 : 128}`);
  return [...new Set(out)];
}

/**
 * splitHostname reads the host's name as hostname and domain. A host named after its address ("10.0.2.15",
 * as the kernel's own DHCP names one) has no FQDN: it gets upstream's `addr` form of a default hostname,
 * the address with dashes (`keel-10-0-2-15`), and no domain.
 */
export function splitHostname(name: string): { hostname: string; domainname: string } {
  const n = name.trim();
  if (isIP(n)) return { hostname: `keel-${n.replace(/[.:]+/g, '-')}`, domainname: '' };
  const [host, ...domain] = n.split('.');
  return { hostname: host || 'keel', domainname: domain.join('.') };
}

/**
 * publishHostIdentity writes HostnameStatus (the host's name unless one is given) and the address sets
 * the certificates and etcd are named after: every address, and the routed ones (loopback left out).
 */
export async function publishHostIdentity(state: State, name?: string): Promise<void> {
  await state.modify(
    HostnameStatus.new(NETWORK_NAMESPACE, HOSTNAME_ID),
    (r) => {
      r.spec = splitHostname(name ?? hostname());
    },
    { owner: HOST_IDENTITY_OWNER },
  );
  const addresses = hostAddresses();
  const routed = addresses.filter((a) => !isLoopback(a));
  const sets: [string, string[]][] = [
    [NODE_ADDRESS_ACCUMULATIVE_ID, addresses],
    [filteredNodeAddressID(NODE_ADDRESS_ACCUMULATIVE_ID, NODE_ADDRESS_FILTER_NO_K8S), addresses],
    [NODE_ADDRESS_ROUTED_ID, routed],
    [filteredNodeAddressID(NODE_ADDRESS_ROUTED_ID, NODE_ADDRESS_FILTER_NO_K8S), routed],
  ];
  for (const [id, list] of sets)
    await state.modify(
      NodeAddress.new(NETWORK_NAMESPACE, id),
      (r) => {
        r.spec = { addresses: list };
      },
      { owner: HOST_IDENTITY_OWNER },
    );
}

const isLoopback = (prefix: string): boolean => prefix.startsWith('127.') || prefix.startsWith('::1/');
