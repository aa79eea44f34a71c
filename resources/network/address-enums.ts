// Address enums as the kernel numbers them (AF_*, RT_SCOPE_*, IFA_F_*), with upstream's text forms.
import { defineEnum, defineFlags } from './enum.js';

/** Family is the address family: AF_INET (2) or AF_INET6 (10). */
export type Family = number;
export const Family = { Inet4: 2, Inet6: 10 } as const;
export const Families = defineEnum('Family', { 2: 'inet4', 10: 'inet6' });

/** familyOfIP is the family of an address or prefix by its spelling. */
export const familyOfIP = (ip: string): Family => (ip.includes(':') ? Family.Inet6 : Family.Inet4);

/** Scope is RT_SCOPE_*. */
export type Scope = number;
export const Scope = { Global: 0, Site: 200, Link: 253, Host: 254, Nowhere: 255 } as const;
export const Scopes = defineEnum('Scope', {
  0: 'global',
  200: 'site',
  253: 'link',
  254: 'host',
  255: 'nowhere',
});

/** AddressFlags is the IFA_F_* bitmask of an address. */
export type AddressFlags = number;
export const AddressFlag = {
  Temporary: 1,
  NoDAD: 2,
  Optimistic: 4,
  DADFailed: 8,
  Home: 16,
  Deprecated: 32,
  Tentative: 64,
  Permanent: 128,
  ManagementTemp: 256,
  NoPrefixRoute: 512,
  MCAutoJoin: 1024,
  StablePrivacy: 2048,
} as const;
export const AddressFlagSet = defineFlags('AddressFlag', {
  1: 'temporary',
  2: 'nodad',
  4: 'optimistic',
  8: 'dadfailed',
  16: 'homeaddress',
  32: 'deprecated',
  64: 'tentative',
  128: 'permanent',
  256: 'mngmtmpaddr',
  512: 'noprefixroute',
  1024: 'mcautojoin',
  2048: 'stableprivacy',
});

/** AddressSortAlgorithm picks how NodeAddresses are ordered: v1 by address, v2 more specific prefixes first. */
export type AddressSortAlgorithm = number;
export const AddressSortAlgorithm = { V1: 0, V2: 1 } as const;
export const AddressSortAlgorithms = defineEnum('AddressSortAlgorithm', { 0: 'v1', 1: 'v2' });
