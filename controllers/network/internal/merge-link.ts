// Merge rule for links: by name, lower layers first, each higher layer overriding the fields it sets.

import { linkID } from '../../../resources/network/ids.js';
import {
  bondMasterIsZero,
  type WireguardSpec,
  wireguardIsZero,
} from '../../../resources/network/link-kinds.js';
import { LinkSpec, type LinkSpecSpec } from '../../../resources/network/link-spec.js';
import type { Merged } from './merge-layers.js';

const copy = (s: LinkSpecSpec) => LinkSpec.codec.copy(s);

/** mergeLinks sorts by name, then layer, and folds each link's layers with mergeLink. */
export function mergeLinks(specs: readonly LinkSpecSpec[]): Merged<LinkSpecSpec> {
  const sorted = [...specs].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.configLayer - b.configLayer,
  );
  const out: Merged<LinkSpecSpec> = new Map();
  for (const s of sorted) {
    const id = linkID(s.name);
    const held = out.get(id);
    if (held) mergeLink(held, s);
    else out.set(id, copy(s));
  }
  return out;
}

/**
 * mergeLink copies into `into` every field `other` sets (non-zero), as upstream's LinkSpecSpec.Merge:
 * so a higher layer cannot reset a field to zero (`up: false` over `up: true` stays up).
 */
export function mergeLink(into: LinkSpecSpec, other: LinkSpecSpec): void {
  const o = copy(other);
  if (o.logical) into.logical = true;
  if (o.up) into.up = true;
  if (o.mtu) into.mtu = o.mtu;
  if (o.kind) into.kind = o.kind;
  if (o.type) into.type = o.type;
  if (o.parentName) into.parentName = o.parentName;
  if (o.bondSlave.masterName || o.bondSlave.slaveIndex) into.bondSlave = o.bondSlave;
  if (o.vlan.vid || o.vlan.protocol) into.vlan = o.vlan;
  if (o.bridgeMaster.stp.enabled || o.bridgeMaster.vlan.filteringEnabled) into.bridgeMaster = o.bridgeMaster;
  if (o.bridgeSlave.masterName) into.bridgeSlave = o.bridgeSlave;
  if (o.vrfMaster.table) into.vrfMaster = o.vrfMaster;
  if (o.vrfSlave.masterName) into.vrfSlave = o.vrfSlave;
  if (!bondMasterIsZero(o.bondMaster)) into.bondMaster = o.bondMaster;
  if (o.hardwareAddress) into.hardwareAddress = o.hardwareAddress;
  if (!wireguardIsZero(o.wireguard))
    into.wireguard = wireguardIsZero(into.wireguard)
      ? o.wireguard
      : mergeWireguard(into.wireguard, o.wireguard);
  // multicast is not merged upstream either: the lowest layer that has the link decides it
  into.configLayer = o.configLayer;
}

/** mergeWireguard: port, mark and private key override when set; peers new by public key are added. */
function mergeWireguard(into: WireguardSpec, other: WireguardSpec): WireguardSpec {
  const known = new Set(into.peers.map((p) => p.publicKey));
  return {
    ...into,
    privateKey: other.privateKey || into.privateKey,
    listenPort: other.listenPort || into.listenPort,
    firewallMark: other.firewallMark || into.firewallMark,
    peers: [...into.peers, ...other.peers.filter((p) => !known.has(p.publicKey))],
  };
}
