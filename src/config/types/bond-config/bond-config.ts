// BondConfig: a bond over member links with the bonding driver's options (replaces `interfaces[].bond`).
import { type BondEnum, checkBondEnum } from '../../validate/bond.js';
import { isIPAddress } from '../../validate/formats.js';
import { defineDocument } from '../definition.js';
import {
  type CommonLink,
  commonLinkFields,
  linkHeader,
  validateHardwareAddr,
  validateLinkFields,
  validateLinkName,
} from '../link-common/link-common.js';
import { bool, int, list, str, struct } from '../schema.js';

export interface BondConfig extends CommonLink {
  hardwareAddr?: string;
  links?: string[];
  bondMode?: string;
  miimon?: number;
  updelay?: number;
  downdelay?: number;
  useCarrier?: boolean;
  xmitHashPolicy?: string;
  arpInterval?: number;
  arpIpTargets?: string[];
  nsIp6Targets?: string[];
  arpValidate?: string;
  arpAllTargets?: string;
  lacpRate?: string;
  failOverMac?: string;
  adSelect?: string;
  adActorSysPrio?: number;
  adUserPortKey?: number;
  adLACPActive?: string;
  primaryReselect?: string;
  resendIGMP?: number;
  minLinks?: number;
  lpInterval?: number;
  packetsPerSlave?: number;
  numPeerNotif?: number;
  tlbLogicalLb?: number;
  allSlavesActive?: number;
  peerNotifDelay?: number;
  missedMax?: number;
}

// YAML key → the enum it holds
const enums: Partial<Record<keyof BondConfig, BondEnum>> = {
  bondMode: 'mode',
  xmitHashPolicy: 'xmitHashPolicy',
  arpValidate: 'arpValidate',
  arpAllTargets: 'arpAllTargets',
  lacpRate: 'lacpRate',
  failOverMac: 'failOverMac',
  adSelect: 'adSelect',
  adLACPActive: 'adLACPActive',
  primaryReselect: 'primaryReselect',
};
// integer options and their upstream widths
const limits: Partial<Record<keyof BondConfig, number>> = {
  miimon: 0xffffffff,
  updelay: 0xffffffff,
  downdelay: 0xffffffff,
  arpInterval: 0xffffffff,
  adActorSysPrio: 0xffff,
  adUserPortKey: 0xffff,
  resendIGMP: 0xffffffff,
  minLinks: 0xffffffff,
  lpInterval: 0xffffffff,
  packetsPerSlave: 0xffffffff,
  numPeerNotif: 0xff,
  tlbLogicalLb: 0xff,
  allSlavesActive: 0xff,
  peerNotifDelay: 0xffffffff,
  missedMax: 0xff,
};

export const BondConfigDefinition = defineDocument<BondConfig>({
  kind: 'BondConfig',
  named: true,
  schema: struct({
    ...linkHeader,
    hardwareAddr: str,
    links: list(str),
    bondMode: str,
    miimon: int,
    updelay: int,
    downdelay: int,
    useCarrier: bool,
    xmitHashPolicy: str,
    arpInterval: int,
    arpIpTargets: list(str),
    nsIp6Targets: list(str),
    arpValidate: str,
    arpAllTargets: str,
    lacpRate: str,
    failOverMac: str,
    adSelect: str,
    adActorSysPrio: int,
    adUserPortKey: int,
    adLACPActive: str,
    primaryReselect: str,
    resendIGMP: int,
    minLinks: int,
    lpInterval: int,
    packetsPerSlave: int,
    numPeerNotif: int,
    tlbLogicalLb: int,
    allSlavesActive: int,
    peerNotifDelay: int,
    missedMax: int,
    ...commonLinkFields,
  }),
  validate(doc, ctx) {
    validateLinkName(doc, ctx);
    if (!doc.links?.length) ctx.error('links', 'at least one link must be specified');
    if (doc.bondMode === undefined) ctx.error('bondMode', 'bond mode must be specified');
    else if (doc.bondMode === '802.3ad')
      // the kernel's defaults leave an LACP bond without link monitoring, so upstream warns
      for (const k of ['miimon', 'updelay', 'downdelay'] as const)
        if (doc[k] === undefined) ctx.warn(k, `${k} was not specified for 802.3ad bond`);
    for (const [k, e] of Object.entries(enums) as [keyof BondConfig, BondEnum][])
      checkBondEnum(e, doc[k] as string | undefined, k, ctx);
    for (const [k, max] of Object.entries(limits) as [keyof BondConfig, number][]) {
      const v = doc[k] as number | undefined;
      if (v !== undefined && (v < 0 || v > max)) ctx.error(k, `${k} ${v} is out of range 0-${max}`);
    }
    doc.arpIpTargets?.forEach((ip, i) => {
      if (!isIPAddress(ip) || ip.includes(':'))
        ctx.error(`arpIpTargets[${i}]`, `${JSON.stringify(ip)} is not an IPv4 address`);
    });
    doc.nsIp6Targets?.forEach((ip, i) => {
      if (!isIPAddress(ip) || !ip.includes(':'))
        ctx.error(`nsIp6Targets[${i}]`, `${JSON.stringify(ip)} is not an IPv6 address`);
    });
    validateHardwareAddr(doc.hardwareAddr, ctx);
    validateLinkFields(doc, ctx);
  },
});
