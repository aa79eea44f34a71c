// HostnameStatuses.net.talos.dev: the hostname and domain name the kernel actually has.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';

export const NETWORK_NAMESPACE = 'network';
export const HOSTNAME_ID = 'hostname';

/** HostnameStatusSpec is the hostname the kernel actually has. */
export interface HostnameStatusSpec {
  hostname: string;
  domainname: string;
}

export const HostnameStatus = defineResource<HostnameStatusSpec>({
  type: 'HostnameStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['hostname'],
  printColumns: [
    { name: 'Hostname', jsonPath: '{.hostname}' },
    { name: 'Domainname', jsonPath: '{.domainname}' },
  ],
  empty: () => ({ hostname: '', domainname: '' }),
  copy: (s) => ({ hostname: s.hostname, domainname: s.domainname }),
  equal: (a, b) => a.hostname === b.hostname && a.domainname === b.domainname,
  proto: { hostname: { no: 1, kind: 'string' }, domainname: { no: 2, kind: 'string' } },
  fromProto: (v) => ({ hostname: String(v.hostname ?? ''), domainname: String(v.domainname ?? '') }),
});
export type HostnameStatus = ResourceOf<typeof HostnameStatus>;

/** fqdn is hostname.domainname, or the bare hostname without a domain. */
export const fqdn = (s: HostnameStatusSpec): string =>
  s.domainname ? `${s.hostname}.${s.domainname}` : s.hostname;

/** dnsNames are the names a certificate for this host carries: the hostname, and the FQDN when it differs. */
export const dnsNames = (s: HostnameStatusSpec): string[] =>
  s.hostname === '' ? [] : s.domainname ? [s.hostname, fqdn(s)] : [s.hostname];
