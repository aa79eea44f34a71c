// AddressStatuses.net.talos.dev: an address as the kernel reports it (`talosctl get addresses`).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { AddressFlagSet, Families, Scopes } from './address-enums.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { ipMessage, ipOfMessage, netIP, netIPPrefix, prefixMessage, prefixOfMessage } from './wire.js';
import { num, obj, str } from './yaml-read.js';

/** AddressStatusSpec: the prefix and the extra addresses as text, empty when the kernel gave none. */
export interface AddressStatusSpec {
  address: string;
  local: string;
  broadcast: string;
  anycast: string;
  multicast: string;
  linkIndex: number;
  linkName: string;
  family: number;
  scope: number;
  flags: number;
  priority: number;
}

const zero = (): AddressStatusSpec => ({
  address: '',
  local: '',
  broadcast: '',
  anycast: '',
  multicast: '',
  linkIndex: 0,
  linkName: '',
  family: 0,
  scope: 0,
  flags: 0,
  priority: 0,
});

const KEYS = Object.keys(zero()) as (keyof AddressStatusSpec)[];

export const AddressStatus = defineResource<AddressStatusSpec>({
  type: 'AddressStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['address', 'addresses'],
  printColumns: [
    { name: 'Address', jsonPath: '{.address}' },
    { name: 'Link', jsonPath: '{.linkName}' },
  ],
  empty: zero,
  copy: (s) => ({ ...s }),
  equal: (a, b) => KEYS.every((k) => a[k] === b[k]),
  proto: {
    address: netIPPrefix(1),
    local: netIP(2),
    broadcast: netIP(3),
    anycast: netIP(4),
    multicast: netIP(5),
    linkIndex: { no: 6, kind: 'uint32' },
    linkName: { no: 7, kind: 'string' },
    family: { no: 8, kind: 'enum' },
    scope: { no: 9, kind: 'enum' },
    flags: { no: 10, kind: 'uint32' },
    priority: { no: 11, kind: 'uint32' },
  },
  toProto: (s) => ({
    ...s,
    address: prefixMessage(s.address),
    local: ipMessage(s.local),
    broadcast: ipMessage(s.broadcast),
    anycast: ipMessage(s.anycast),
    multicast: ipMessage(s.multicast),
  }),
  fromProto: (v) => ({
    address: prefixOfMessage(v.address),
    local: ipOfMessage(v.local),
    broadcast: ipOfMessage(v.broadcast),
    anycast: ipOfMessage(v.anycast),
    multicast: ipOfMessage(v.multicast),
    linkIndex: num(v.linkIndex),
    linkName: str(v.linkName),
    family: num(v.family),
    scope: num(v.scope),
    flags: num(v.flags),
    priority: num(v.priority),
  }),
  // netip.Addr has no exported fields, so yaml's omitempty always drops local/broadcast/anycast/multicast
  toYAML: (s) => ({
    address: s.address,
    linkIndex: s.linkIndex,
    linkName: s.linkName,
    family: Families.text(s.family),
    scope: Scopes.text(s.scope),
    flags: AddressFlagSet.text(s.flags),
    priority: s.priority,
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      address: str(o.address),
      local: str(o.local),
      broadcast: str(o.broadcast),
      anycast: str(o.anycast),
      multicast: str(o.multicast),
      linkIndex: num(o.linkIndex),
      linkName: str(o.linkName),
      family: enumOf(Families, o.family),
      scope: enumOf(Scopes, o.scope),
      flags: enumOf(AddressFlagSet, o.flags),
      priority: num(o.priority),
    };
  },
});
export type AddressStatus = ResourceOf<typeof AddressStatus>;
