// LinkSpecs.net.talos.dev: a link as the config wants it (up, MTU, kind, and the kind's settings).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { LinkTypes } from './link-enums.js';
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
import { bool, num, obj, str } from './yaml-read.js';

/** The logical kinds upstream creates (LinkSpec.kind). */
export const LinkKind = {
  VLAN: 'vlan',
  Bond: 'bond',
  Bridge: 'bridge',
  VRF: 'vrf',
  Wireguard: 'wireguard',
} as const;

/** BondSlave makes a link a member of a bond; YAML carries its fields inline. */
export interface BondSlave {
  masterName: string;
  slaveIndex: number;
}
/** BridgeSlave and VRFSlave name the master a link is enslaved to. */
export interface BridgeSlave {
  masterName: string;
}
export interface VRFSlave {
  masterName: string;
}

/** LinkSpecSpec is the desired state of one link; hardwareAddress is `aa:bb:…` text, empty when unset. */
export interface LinkSpecSpec {
  name: string;
  logical: boolean;
  up: boolean;
  mtu: number;
  kind: string;
  type: number;
  hardwareAddress: string;
  parentName: string;
  bondSlave: BondSlave;
  bridgeSlave: BridgeSlave;
  vrfSlave: VRFSlave;
  vlan: VLANSpec;
  bondMaster: BondMasterSpec;
  bridgeMaster: BridgeMasterSpec;
  vrfMaster: VRFMasterSpec;
  wireguard: WireguardSpec;
  configLayer: ConfigLayer;
  /** null is unset (upstream's nil *bool), so a lower layer's value is kept */
  multicast: boolean | null;
}

export const linkSpecZero = (): LinkSpecSpec => ({
  name: '',
  logical: false,
  up: false,
  mtu: 0,
  kind: '',
  type: 0,
  hardwareAddress: '',
  parentName: '',
  bondSlave: { masterName: '', slaveIndex: 0 },
  bridgeSlave: { masterName: '' },
  vrfSlave: { masterName: '' },
  vlan: vlanZero(),
  bondMaster: bondMasterZero(),
  bridgeMaster: bridgeMasterZero(),
  vrfMaster: { table: 0 },
  wireguard: wireguardZero(),
  configLayer: ConfigLayer.Default,
  multicast: null,
});

const copyLinkSpec = (s: LinkSpecSpec): LinkSpecSpec => ({
  ...s,
  bondSlave: { ...s.bondSlave },
  bridgeSlave: { ...s.bridgeSlave },
  vrfSlave: { ...s.vrfSlave },
  vlan: { ...s.vlan },
  bondMaster: {
    ...s.bondMaster,
    arpIPTargets: [...s.bondMaster.arpIPTargets],
    nsIP6Targets: [...s.bondMaster.nsIP6Targets],
  },
  bridgeMaster: { stp: { ...s.bridgeMaster.stp }, vlan: { ...s.bridgeMaster.vlan } },
  vrfMaster: { ...s.vrfMaster },
  wireguard: {
    ...s.wireguard,
    peers: s.wireguard.peers.map((p) => ({ ...p, allowedIPs: [...p.allowedIPs] })),
  },
});

const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** bondMasterEqual compares every field (copy/equal semantics, not upstream's lenient kernel comparison). */
export function bondMasterEqual(a: BondMasterSpec, b: BondMasterSpec): boolean {
  for (const k of Object.keys(a) as (keyof BondMasterSpec)[]) {
    const x = a[k];
    const y = b[k];
    if (Array.isArray(x) ? !sameList(x, y as string[]) : x !== y) return false;
  }
  return true;
}

export function wireguardEqual(a: WireguardSpec, b: WireguardSpec): boolean {
  return (
    a.privateKey === b.privateKey &&
    a.publicKey === b.publicKey &&
    a.listenPort === b.listenPort &&
    a.firewallMark === b.firewallMark &&
    a.peers.length === b.peers.length &&
    a.peers.every((p, i) => {
      const q = b.peers[i]!;
      return (
        p.publicKey === q.publicKey &&
        p.presharedKey === q.presharedKey &&
        p.endpoint === q.endpoint &&
        p.persistentKeepaliveInterval === q.persistentKeepaliveInterval &&
        sameList(p.allowedIPs, q.allowedIPs)
      );
    })
  );
}

export const linkSpecEqual = (a: LinkSpecSpec, b: LinkSpecSpec): boolean =>
  a.name === b.name &&
  a.logical === b.logical &&
  a.up === b.up &&
  a.mtu === b.mtu &&
  a.kind === b.kind &&
  a.type === b.type &&
  a.hardwareAddress === b.hardwareAddress &&
  a.parentName === b.parentName &&
  a.bondSlave.masterName === b.bondSlave.masterName &&
  a.bondSlave.slaveIndex === b.bondSlave.slaveIndex &&
  a.bridgeSlave.masterName === b.bridgeSlave.masterName &&
  a.vrfSlave.masterName === b.vrfSlave.masterName &&
  a.vlan.vid === b.vlan.vid &&
  a.vlan.protocol === b.vlan.protocol &&
  bondMasterEqual(a.bondMaster, b.bondMaster) &&
  a.bridgeMaster.stp.enabled === b.bridgeMaster.stp.enabled &&
  a.bridgeMaster.vlan.filteringEnabled === b.bridgeMaster.vlan.filteringEnabled &&
  a.vrfMaster.table === b.vrfMaster.table &&
  wireguardEqual(a.wireguard, b.wireguard) &&
  a.configLayer === b.configLayer &&
  a.multicast === b.multicast;

/** linkSpecYAML: upstream's keys and order; the bond slave's fields sit inline, zero sub-structs are left out. */
function linkSpecYAML(s: LinkSpecSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: s.name,
    logical: s.logical,
    up: s.up,
    mtu: s.mtu,
    kind: s.kind,
    type: LinkTypes.text(s.type),
  };
  if (s.hardwareAddress) out.hardwareAddr = s.hardwareAddress;
  if (s.parentName) out.parentName = s.parentName;
  if (s.bondSlave.masterName) out.masterName = s.bondSlave.masterName;
  if (s.bondSlave.slaveIndex) out.slaveIndex = s.bondSlave.slaveIndex;
  if (s.bridgeSlave.masterName) out.bridgeSlave = { masterName: s.bridgeSlave.masterName };
  if (s.vrfSlave.masterName) out.vrfSlave = { masterName: s.vrfSlave.masterName };
  if (!vlanIsZero(s.vlan)) out.vlan = vlanYAML(s.vlan);
  if (!bondMasterIsZero(s.bondMaster)) out.bondMaster = bondMasterYAML(s.bondMaster);
  if (!bridgeMasterIsZero(s.bridgeMaster)) out.bridgeMaster = bridgeMasterYAML(s.bridgeMaster);
  if (s.vrfMaster.table !== 0) out.vrfMaster = vrfMasterYAML(s.vrfMaster);
  if (!wireguardIsZero(s.wireguard)) out.wireguard = wireguardYAML(s.wireguard);
  out.layer = configLayerText(s.configLayer);
  if (s.multicast !== null) out.multicast = s.multicast;
  return out;
}

function linkSpecOfYAML(v: unknown): LinkSpecSpec {
  const o = obj(v);
  return {
    name: str(o.name),
    logical: bool(o.logical),
    up: bool(o.up),
    mtu: num(o.mtu),
    kind: str(o.kind),
    type: enumOf(LinkTypes, o.type),
    hardwareAddress: hardwareAddrOf(o.hardwareAddr),
    parentName: str(o.parentName),
    bondSlave: { masterName: str(o.masterName), slaveIndex: num(o.slaveIndex) },
    bridgeSlave: { masterName: str(obj(o.bridgeSlave).masterName) },
    vrfSlave: { masterName: str(obj(o.vrfSlave).masterName) },
    vlan: vlanOfYAML(o.vlan),
    bondMaster: o.bondMaster === undefined ? bondMasterZero() : bondMasterOfYAML(o.bondMaster),
    bridgeMaster: bridgeMasterOf(o.bridgeMaster),
    vrfMaster: vrfMasterOfYAML(o.vrfMaster),
    wireguard: wireguardOfYAML(o.wireguard),
    configLayer: configLayerOf(o.layer),
    multicast: typeof o.multicast === 'boolean' ? o.multicast : null,
  };
}

const masterName = { masterName: { no: 1, kind: 'string' } } as const;

export const LinkSpec = defineResource<LinkSpecSpec>({
  type: 'LinkSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  sensitivity: 'sensitive',
  empty: linkSpecZero,
  copy: copyLinkSpec,
  equal: linkSpecEqual,
  proto: {
    name: { no: 1, kind: 'string' },
    logical: { no: 2, kind: 'bool' },
    up: { no: 3, kind: 'bool' },
    mtu: { no: 4, kind: 'uint32' },
    kind: { no: 5, kind: 'string' },
    type: { no: 6, kind: 'enum' },
    parentName: { no: 7, kind: 'string' },
    bondSlave: {
      no: 8,
      kind: 'message',
      schema: { masterName: { no: 1, kind: 'string' }, slaveIndex: { no: 2, kind: 'int64' } },
    },
    bridgeSlave: { no: 9, kind: 'message', schema: masterName },
    vlan: { no: 10, kind: 'message', schema: VLAN_SCHEMA },
    bondMaster: { no: 11, kind: 'message', schema: BOND_MASTER_SCHEMA },
    bridgeMaster: { no: 12, kind: 'message', schema: BRIDGE_MASTER_SCHEMA },
    wireguard: { no: 13, kind: 'message', schema: WIREGUARD_SCHEMA },
    configLayer: { no: 14, kind: 'enum' },
    hardwareAddress: { no: 15, kind: 'bytes' },
    multicast: { no: 16, kind: 'bool', optional: true },
    vrfMaster: { no: 17, kind: 'message', schema: VRF_MASTER_SCHEMA },
    vrfSlave: { no: 18, kind: 'message', schema: masterName },
  },
  toProto: (s) => ({
    ...s,
    hardwareAddress: hardwareAddrBytes(s.hardwareAddress),
    bondMaster: bondMasterProto(s.bondMaster),
    wireguard: wireguardProto(s.wireguard),
  }),
  fromProto: (v) => {
    const bs = obj(v.bondSlave);
    const br = obj(v.bridgeMaster);
    return {
      name: str(v.name),
      logical: bool(v.logical),
      up: bool(v.up),
      mtu: num(v.mtu),
      kind: str(v.kind),
      type: num(v.type),
      hardwareAddress: hardwareAddrOf(v.hardwareAddress),
      parentName: str(v.parentName),
      bondSlave: { masterName: str(bs.masterName), slaveIndex: num(bs.slaveIndex) },
      bridgeSlave: { masterName: str(obj(v.bridgeSlave).masterName) },
      vrfSlave: { masterName: str(obj(v.vrfSlave).masterName) },
      vlan: vlanOfProto(v.vlan),
      bondMaster: bondMasterOfProto(v.bondMaster),
      bridgeMaster: {
        stp: { enabled: bool(obj(br.stp).enabled) },
        vlan: { filteringEnabled: bool(obj(br.vlan).filteringEnabled) },
      },
      vrfMaster: { table: num(obj(v.vrfMaster).table) },
      wireguard: wireguardOfProto(v.wireguard),
      configLayer: num(v.configLayer) as ConfigLayer,
      multicast: typeof v.multicast === 'boolean' ? v.multicast : null,
    };
  },
  toYAML: linkSpecYAML,
  fromYAML: linkSpecOfYAML,
});
export type LinkSpec = ResourceOf<typeof LinkSpec>;
