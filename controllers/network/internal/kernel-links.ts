// The kind settings of links between the resources and the kernel: bond, bridge, VLAN and VRF data as
// upstream's adapters encode and decode them, and upstream's lookups of a link by name.
import {
  type BondMasterSpec,
  BondMode,
  type BridgeMasterSpec,
  bondMasterZero,
  type VLANSpec,
  type VRFMasterSpec,
} from '../../../resources/network/index.js';
import type { Attr, BondInfo, Link, LinkInfo } from '../../../src/sys/netlink/index.js';
import { attrU32 } from '../../../src/sys/netlink/index.js';

const IFLA_VRF_TABLE = 1;

/** findLink is upstream's findLink: by name, then (if allowed, physical links only) by alias or altname. */
export function findLink(links: readonly Link[], name: string, allowAliases: boolean): Link | undefined {
  if (name === '') return undefined;
  const byName = links.find((l) => l.name === name);
  if (byName || !allowAliases) return byName;
  return links.find((l) => l.alias === name || l.altNames.includes(name));
}

/** linkIndexOf is upstream's resolveLinkName: 0 when no link answers to the name. */
export const linkIndexOf = (links: readonly Link[], name: string): number =>
  findLink(links, name, true)?.index ?? 0;

const lacpish = (mode: number) => mode === BondMode.LACP8023AD;
const balancing = (mode: number) => mode === BondMode.ALB || mode === BondMode.TLB;
const arpCapable = (mode: number) => !lacpish(mode) && !balancing(mode);

/** bondInfoOf is the bond data upstream sends for a spec: some settings only for the modes that take them. */
export function bondInfoOf(b: BondMasterSpec): BondInfo {
  const mode = b.mode;
  const out: Record<string, unknown> = {
    mode,
    xmitHashPolicy: b.hashPolicy,
    arpAllTargets: b.arpAllTargets,
    primaryReselect: b.primaryReselect,
    failOverMac: b.failOverMac,
    adSelect: b.adSelect,
    miimon: b.miimon,
    resendIgmp: b.resendIGMP,
    minLinks: b.minLinks,
    lpInterval: b.lpInterval,
    numPeerNotif: b.numPeerNotif,
    allSlavesActive: b.allSlavesActive !== 0,
    useCarrier: b.useCarrier,
  };
  if (lacpish(mode)) {
    out.lacpRate = b.lacpRate;
    out.adLacpActive = b.adLACPActive !== 0;
    out.adActorSysPrio = b.adActorSysPrio;
    out.adUserPortKey = b.adUserPortKey;
  }
  if (arpCapable(mode)) {
    out.arpValidate = b.arpValidate;
    out.arpInterval = b.arpInterval;
    out.arpIpTargets = b.arpIPTargets;
    out.nsIp6Targets = b.nsIP6Targets;
  }
  if ((mode === BondMode.ActiveBackup || balancing(mode)) && b.primaryIndex !== null)
    out.primary = b.primaryIndex;
  if (b.miimon !== 0) {
    out.updelay = b.upDelay;
    out.downdelay = b.downDelay;
    out.peerNotifyDelay = b.peerNotifyDelay;
  }
  if (mode === BondMode.RoundRobin) out.packetsPerSlave = b.packetsPerSlave;
  if (balancing(mode)) out.tlbDynamicLb = b.tlbDynamicLB !== 0;
  if (b.missedMax !== 0) out.missedMax = b.missedMax;
  return out as BondInfo;
}

/** bondMasterOf reads the bond data the kernel reports into the resource's shape. */
export function bondMasterOf(i: BondInfo | undefined): BondMasterSpec {
  const b = bondMasterZero();
  if (!i) return b;
  const n = (v: number | undefined) => v ?? 0;
  const f = (v: boolean | undefined) => (v ? 1 : 0);
  b.mode = n(i.mode);
  b.hashPolicy = n(i.xmitHashPolicy);
  b.lacpRate = n(i.lacpRate);
  b.arpValidate = n(i.arpValidate);
  b.arpAllTargets = n(i.arpAllTargets);
  b.primaryIndex = i.primary ?? null;
  b.primaryReselect = n(i.primaryReselect);
  b.failOverMac = n(i.failOverMac);
  b.adSelect = n(i.adSelect);
  b.miimon = n(i.miimon);
  b.upDelay = n(i.updelay);
  b.downDelay = n(i.downdelay);
  b.arpInterval = n(i.arpInterval);
  b.resendIGMP = n(i.resendIgmp);
  b.minLinks = n(i.minLinks);
  b.lpInterval = n(i.lpInterval);
  b.packetsPerSlave = n(i.packetsPerSlave);
  b.numPeerNotif = n(i.numPeerNotif);
  b.tlbDynamicLB = f(i.tlbDynamicLb);
  b.allSlavesActive = f(i.allSlavesActive);
  b.useCarrier = i.useCarrier ?? false;
  b.adActorSysPrio = n(i.adActorSysPrio);
  b.adUserPortKey = n(i.adUserPortKey);
  b.peerNotifyDelay = n(i.peerNotifyDelay);
  b.arpIPTargets = [...(i.arpIpTargets ?? [])];
  b.nsIP6Targets = [...(i.nsIp6Targets ?? [])];
  b.adLACPActive = f(i.adLacpActive);
  b.missedMax = n(i.missedMax);
  return b;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * bondSettled is upstream's BondMasterSpec.Equal between the kernel's bond and the spec: a primary only
 * counts when both name one, and missedMax only in the modes that use it.
 */
export function bondSettled(kernel: BondMasterSpec, spec: BondMasterSpec): boolean {
  const keys = Object.keys(spec) as (keyof BondMasterSpec)[];
  for (const k of keys) {
    if (k === 'primaryIndex' || k === 'missedMax') continue;
    const a = kernel[k];
    const b = spec[k];
    if (Array.isArray(a) ? !sameList(a, b as string[]) : a !== b) return false;
  }
  if (kernel.primaryIndex !== null && spec.primaryIndex !== null && kernel.primaryIndex !== spec.primaryIndex)
    return false;
  return !arpCapable(spec.mode) || kernel.missedMax === spec.missedMax;
}

export const bridgeMasterOf = (i: LinkInfo['bridge']): BridgeMasterSpec => ({
  stp: { enabled: !!i?.stp },
  vlan: { filteringEnabled: !!i?.vlanFiltering },
});

export const vlanOf = (i: LinkInfo['vlan']): VLANSpec => ({ vid: i?.id ?? 0, protocol: i?.protocol ?? 0 });

export function vrfMasterOf(data: readonly Attr[] | undefined): VRFMasterSpec {
  const a = data?.find((x) => x.type === IFLA_VRF_TABLE);
  return { table: a ? attrU32(a) : 0 };
}

/** vrfData is a VRF's IFLA_INFO_DATA: its table. */
export const vrfData = (v: VRFMasterSpec): Attr[] => {
  const data = Buffer.alloc(4);
  data.writeUInt32LE(v.table >>> 0);
  return [{ type: IFLA_VRF_TABLE, nested: false, data }];
};
