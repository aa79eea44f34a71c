// LinkStatuses.net.talos.dev: a link as the kernel reports it (`talosctl get links`).

import { cloneData, equalData } from '../../src/cosi/resource/data.js';
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { Duplexes, LinkFlagSet, LinkType, LinkTypes, OperationalStates, Ports } from './link-enums.js';
import {
  BOND_MASTER_SCHEMA,
  type BondMasterSpec,
  BRIDGE_MASTER_SCHEMA,
  type BridgeMasterSpec,
  bondMasterIsZero,
  bondMasterOfProto,
  bondMasterOfYAML,
  bondMasterProto,
  bondMasterYAML,
  bondMasterZero,
  bridgeMasterIsZero,
  bridgeMasterOf,
  bridgeMasterYAML,
  bridgeMasterZero,
  VLAN_SCHEMA,
  type VLANSpec,
  VRF_MASTER_SCHEMA,
  type VRFMasterSpec,
  vlanIsZero,
  vlanOfProto,
  vlanOfYAML,
  vlanYAML,
  vlanZero,
  vrfMasterOfYAML,
  vrfMasterYAML,
  WIREGUARD_SCHEMA,
  type WireguardSpec,
  wireguardIsZero,
  wireguardOfProto,
  wireguardOfYAML,
  wireguardProto,
  wireguardYAML,
  wireguardZero,
} from './link-kinds.js';
import { hardwareAddrBytes, hardwareAddrOf } from './wire.js';
import { bool, num, obj, str, strs } from './yaml-read.js';

/** LinkStatusSpec: kernel numbers for type, flags, state, port and duplex; MAC addresses as `aa:bb:…` text. */
export interface LinkStatusSpec {
  alias: string;
  altNames: string[];
  index: number;
  type: number;
  linkIndex: number;
  flags: number;
  hardwareAddr: string;
  permanentAddr: string;
  broadcastAddr: string;
  mtu: number;
  queueDisc: string;
  masterIndex: number;
  operationalState: number;
  kind: string;
  slaveKind: string;
  busPath: string;
  pciID: string;
  driver: string;
  driverVersion: string;
  firmwareVersion: string;
  productID: string;
  vendorID: string;
  product: string;
  vendor: string;
  linkState: boolean;
  speedMegabits: number;
  port: number;
  duplex: number;
  vlan: VLANSpec;
  bridgeMaster: BridgeMasterSpec;
  bondMaster: BondMasterSpec;
  vrfMaster: VRFMasterSpec;
  wireguard: WireguardSpec;
}

export const linkStatusZero = (): LinkStatusSpec => ({
  alias: '',
  altNames: [],
  index: 0,
  type: 0,
  linkIndex: 0,
  flags: 0,
  hardwareAddr: '',
  permanentAddr: '',
  broadcastAddr: '',
  mtu: 0,
  queueDisc: '',
  masterIndex: 0,
  operationalState: 0,
  kind: '',
  slaveKind: '',
  busPath: '',
  pciID: '',
  driver: '',
  driverVersion: '',
  firmwareVersion: '',
  productID: '',
  vendorID: '',
  product: '',
  vendor: '',
  linkState: false,
  speedMegabits: 0,
  port: 0,
  duplex: 0,
  vlan: vlanZero(),
  bridgeMaster: bridgeMasterZero(),
  bondMaster: bondMasterZero(),
  vrfMaster: { table: 0 },
  wireguard: wireguardZero(),
});

/** linkStatusPhysical: an Ethernet link that is not a logical kind, as upstream's Physical(). */
export const linkStatusPhysical = (s: LinkStatusSpec): boolean => s.type === LinkType.Ether && s.kind === '';

/** linkStatusNames are every name a link answers to: its id, alias and alternative names. */
export const linkStatusNames = (id: string, s: LinkStatusSpec): string[] => [
  id,
  ...(s.alias ? [s.alias] : []),
  ...s.altNames,
];

// strings left out of the YAML when empty, in upstream's order after slaveKind
const OPTIONAL_TEXT = [
  'busPath',
  'pciID',
  'driver',
  'driverVersion',
  'firmwareVersion',
  'productID',
  'vendorID',
  'product',
  'vendor',
] as const;

function linkStatusYAML(s: LinkStatusSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.alias) out.alias = s.alias;
  if (s.altNames.length > 0) out.altNames = s.altNames;
  out.index = s.index;
  out.type = LinkTypes.text(s.type);
  out.linkIndex = s.linkIndex;
  out.flags = LinkFlagSet.text(s.flags);
  out.hardwareAddr = s.hardwareAddr;
  out.permanentAddr = s.permanentAddr;
  out.broadcastAddr = s.broadcastAddr;
  out.mtu = s.mtu;
  out.queueDisc = s.queueDisc;
  if (s.masterIndex) out.masterIndex = s.masterIndex;
  out.operationalState = OperationalStates.text(s.operationalState);
  out.kind = s.kind;
  out.slaveKind = s.slaveKind;
  for (const k of OPTIONAL_TEXT) if (s[k]) out[k] = s[k];
  out.linkState = s.linkState;
  if (s.speedMegabits) out.speedMbit = s.speedMegabits;
  out.port = Ports.text(s.port);
  out.duplex = Duplexes.text(s.duplex);
  if (!vlanIsZero(s.vlan)) out.vlan = vlanYAML(s.vlan);
  if (!bridgeMasterIsZero(s.bridgeMaster)) out.bridgeMaster = bridgeMasterYAML(s.bridgeMaster);
  if (!bondMasterIsZero(s.bondMaster)) out.bondMaster = bondMasterYAML(s.bondMaster);
  if (s.vrfMaster.table !== 0) out.vrfMaster = vrfMasterYAML(s.vrfMaster);
  if (!wireguardIsZero(s.wireguard)) out.wireguard = wireguardYAML(s.wireguard);
  return out;
}

function linkStatusOfYAML(v: unknown): LinkStatusSpec {
  const o = obj(v);
  const out: LinkStatusSpec = {
    ...linkStatusZero(),
    alias: str(o.alias),
    altNames: strs(o.altNames),
    index: num(o.index),
    type: enumOf(LinkTypes, o.type),
    linkIndex: num(o.linkIndex),
    flags: enumOf(LinkFlagSet, o.flags),
    hardwareAddr: hardwareAddrOf(o.hardwareAddr),
    permanentAddr: hardwareAddrOf(o.permanentAddr),
    broadcastAddr: hardwareAddrOf(o.broadcastAddr),
    mtu: num(o.mtu),
    queueDisc: str(o.queueDisc),
    masterIndex: num(o.masterIndex),
    operationalState: enumOf(OperationalStates, o.operationalState),
    kind: str(o.kind),
    slaveKind: str(o.slaveKind),
    linkState: bool(o.linkState),
    speedMegabits: num(o.speedMbit),
    port: enumOf(Ports, o.port),
    duplex: enumOf(Duplexes, o.duplex),
    vlan: vlanOfYAML(o.vlan),
    bridgeMaster: bridgeMasterOf(o.bridgeMaster),
    bondMaster: o.bondMaster === undefined ? bondMasterZero() : bondMasterOfYAML(o.bondMaster),
    vrfMaster: vrfMasterOfYAML(o.vrfMaster),
    wireguard: wireguardOfYAML(o.wireguard),
  };
  for (const k of OPTIONAL_TEXT) out[k] = str(o[k]);
  return out;
}

export const LinkStatus = defineResource<LinkStatusSpec>({
  type: 'LinkStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['link', 'links'],
  printColumns: [
    { name: 'Alias', jsonPath: '{.alias}' },
    { name: 'Type', jsonPath: '{.type}' },
    { name: 'Kind', jsonPath: '{.kind}' },
    { name: 'Hw Addr', jsonPath: '{.hardwareAddr}' },
    { name: 'Oper State', jsonPath: '{.operationalState}' },
    { name: 'Link State', jsonPath: '{.linkState}' },
  ],
  empty: linkStatusZero,
  copy: cloneData,
  equal: equalData,
  proto: {
    index: { no: 1, kind: 'uint32' },
    type: { no: 2, kind: 'enum' },
    linkIndex: { no: 3, kind: 'uint32' },
    flags: { no: 4, kind: 'uint32' },
    hardwareAddr: { no: 5, kind: 'bytes' },
    broadcastAddr: { no: 6, kind: 'bytes' },
    mtu: { no: 7, kind: 'uint32' },
    queueDisc: { no: 8, kind: 'string' },
    masterIndex: { no: 9, kind: 'uint32' },
    operationalState: { no: 10, kind: 'enum' },
    kind: { no: 11, kind: 'string' },
    slaveKind: { no: 12, kind: 'string' },
    busPath: { no: 13, kind: 'string' },
    pciID: { no: 14, kind: 'string' },
    driver: { no: 15, kind: 'string' },
    driverVersion: { no: 16, kind: 'string' },
    firmwareVersion: { no: 17, kind: 'string' },
    productID: { no: 18, kind: 'string' },
    vendorID: { no: 19, kind: 'string' },
    product: { no: 20, kind: 'string' },
    vendor: { no: 21, kind: 'string' },
    linkState: { no: 22, kind: 'bool' },
    speedMegabits: { no: 23, kind: 'int64' },
    port: { no: 24, kind: 'enum' },
    duplex: { no: 25, kind: 'enum' },
    vlan: { no: 26, kind: 'message', schema: VLAN_SCHEMA },
    bridgeMaster: { no: 27, kind: 'message', schema: BRIDGE_MASTER_SCHEMA },
    bondMaster: { no: 28, kind: 'message', schema: BOND_MASTER_SCHEMA },
    wireguard: { no: 29, kind: 'message', schema: WIREGUARD_SCHEMA },
    permanentAddr: { no: 30, kind: 'bytes' },
    alias: { no: 31, kind: 'string' },
    altNames: { no: 32, kind: 'string', repeated: true },
    vrfMaster: { no: 33, kind: 'message', schema: VRF_MASTER_SCHEMA },
  },
  toProto: (s) => ({
    ...s,
    hardwareAddr: hardwareAddrBytes(s.hardwareAddr),
    permanentAddr: hardwareAddrBytes(s.permanentAddr),
    broadcastAddr: hardwareAddrBytes(s.broadcastAddr),
    bondMaster: bondMasterProto(s.bondMaster),
    wireguard: wireguardProto(s.wireguard),
  }),
  fromProto: (v) => {
    const out = linkStatusZero();
    for (const k of Object.keys(out) as (keyof LinkStatusSpec)[]) {
      const x = v[k];
      if (typeof x === 'string' || typeof x === 'boolean') (out as unknown as Record<string, unknown>)[k] = x;
      else if (typeof x === 'number' || typeof x === 'bigint')
        (out as unknown as Record<string, unknown>)[k] = num(x);
    }
    const br = obj(v.bridgeMaster);
    out.altNames = strs(v.altNames);
    out.hardwareAddr = hardwareAddrOf(v.hardwareAddr);
    out.permanentAddr = hardwareAddrOf(v.permanentAddr);
    out.broadcastAddr = hardwareAddrOf(v.broadcastAddr);
    out.vlan = vlanOfProto(v.vlan);
    out.bridgeMaster = {
      stp: { enabled: bool(obj(br.stp).enabled) },
      vlan: { filteringEnabled: bool(obj(br.vlan).filteringEnabled) },
    };
    out.bondMaster = bondMasterOfProto(v.bondMaster);
    out.vrfMaster = { table: num(obj(v.vrfMaster).table) };
    out.wireguard = wireguardOfProto(v.wireguard);
    return out;
  },
  toYAML: linkStatusYAML,
  fromYAML: linkStatusOfYAML,
});
export type LinkStatus = ResourceOf<typeof LinkStatus>;
