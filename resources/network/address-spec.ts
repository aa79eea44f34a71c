// AddressSpecs.net.talos.dev: an address the config wants on a link.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { AddressFlagSet, Families, Scopes } from './address-enums.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { netIPPrefix, prefixMessage, prefixOfMessage } from './wire.js';
import { bool, num, obj, str } from './yaml-read.js';

/** AddressSpecSpec: `address` is a prefix such as `10.5.0.2/24`; family, scope and flags are kernel numbers. */
export interface AddressSpecSpec {
  address: string;
  linkName: string;
  family: number;
  scope: number;
  flags: number;
  announceWithARP: boolean;
  priority: number;
  configLayer: ConfigLayer;
}

export const addressSpecZero = (): AddressSpecSpec => ({
  address: '',
  linkName: '',
  family: 0,
  scope: 0,
  flags: 0,
  announceWithARP: false,
  priority: 0,
  configLayer: ConfigLayer.Default,
});

export const addressSpecEqual = (a: AddressSpecSpec, b: AddressSpecSpec): boolean =>
  a.address === b.address &&
  a.linkName === b.linkName &&
  a.family === b.family &&
  a.scope === b.scope &&
  a.flags === b.flags &&
  a.announceWithARP === b.announceWithARP &&
  a.priority === b.priority &&
  a.configLayer === b.configLayer;

export const AddressSpec = defineResource<AddressSpecSpec>({
  type: 'AddressSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  empty: addressSpecZero,
  copy: (s) => ({ ...s }),
  equal: addressSpecEqual,
  proto: {
    address: netIPPrefix(1),
    linkName: { no: 2, kind: 'string' },
    family: { no: 3, kind: 'enum' },
    scope: { no: 4, kind: 'enum' },
    flags: { no: 5, kind: 'uint32' },
    announceWithARP: { no: 6, kind: 'bool' },
    configLayer: { no: 7, kind: 'enum' },
    priority: { no: 8, kind: 'uint32' },
  },
  toProto: (s) => ({ ...s, address: prefixMessage(s.address) }),
  fromProto: (v) => ({
    address: prefixOfMessage(v.address),
    linkName: str(v.linkName),
    family: num(v.family),
    scope: num(v.scope),
    flags: num(v.flags),
    announceWithARP: bool(v.announceWithARP),
    priority: num(v.priority),
    configLayer: num(v.configLayer) as ConfigLayer,
  }),
  toYAML: (s) => ({
    address: s.address,
    linkName: s.linkName,
    family: Families.text(s.family),
    scope: Scopes.text(s.scope),
    flags: AddressFlagSet.text(s.flags),
    ...(s.announceWithARP ? { announceWithARP: true } : {}),
    ...(s.priority ? { priority: s.priority } : {}),
    layer: configLayerText(s.configLayer),
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      address: str(o.address),
      linkName: str(o.linkName),
      family: enumOf(Families, o.family),
      scope: enumOf(Scopes, o.scope),
      flags: enumOf(AddressFlagSet, o.flags),
      announceWithARP: bool(o.announceWithARP),
      priority: num(o.priority),
      configLayer: configLayerOf(o.layer),
    };
  },
});
export type AddressSpec = ResourceOf<typeof AddressSpec>;
