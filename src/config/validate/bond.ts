// Bond rules shared by v1alpha1 `interfaces[].bond` and BondConfig: option enums and which mode allows what.
import type { RuleContext } from './context.js';

/** Each option's accepted names, as the kernel's bonding driver spells them ('' is the default). */
export const bondEnums = {
  mode: ['balance-rr', 'active-backup', 'balance-xor', 'broadcast', '802.3ad', 'balance-tlb', 'balance-alb'],
  xmitHashPolicy: ['layer2', 'layer3+4', 'layer2+3', 'encap2+3', 'encap3+4'],
  lacpRate: ['slow', 'fast'],
  arpValidate: ['none', 'active', 'backup', 'all', 'filter', 'filter-active', 'filter-backup'],
  arpAllTargets: ['any', 'all'],
  primaryReselect: ['always', 'better', 'failure'],
  failOverMac: ['none', 'active', 'follow'],
  adSelect: ['stable', 'bandwidth', 'count'],
  adLACPActive: ['on', 'off'],
} as const;
export type BondEnum = keyof typeof bondEnums;

// upstream's wording of each enum's parse error
const enumError: Record<BondEnum, string> = {
  mode: 'invalid bond type',
  xmitHashPolicy: 'invalid xmit hash policy',
  lacpRate: 'invalid lacp rate',
  arpValidate: 'invalid arp_validate mode',
  arpAllTargets: 'invalid arp_all_targets mode',
  primaryReselect: 'invalid primary_reselect mode',
  failOverMac: 'invalid fail_over_mac value',
  adSelect: 'invalid ad_select mode',
  adLACPActive: 'invalid ad_lacp_active value',
};

/** checkBondEnum reports a value outside its enum; undefined and '' mean the default. */
export function checkBondEnum(
  option: BondEnum,
  value: string | undefined,
  at: string,
  ctx: RuleContext,
): void {
  if (value === undefined || value === '') return;
  if (!(bondEnums[option] as readonly string[]).includes(value))
    ctx.error(at, `${enumError[option]} ${value}`);
}

/** The v1alpha1 bond options these rules read (YAML keys as upstream spells them). */
export interface LegacyBond {
  interfaces?: string[];
  deviceSelectors?: unknown[];
  arpIPTarget?: string[];
  mode?: string;
  xmitHashPolicy?: string;
  lacpRate?: string;
  adActorSystem?: string;
  arpValidate?: string;
  arpAllTargets?: string;
  primary?: string;
  primaryReselect?: string;
  failOverMac?: string;
  adSelect?: string;
  miimon?: number;
  updelay?: number;
  downdelay?: number;
  arpInterval?: number;
  packetsPerSlave?: number;
  tlbDynamicLb?: number;
  adActorSysPrio?: number;
  adUserPortKey?: number;
}

const enumFields = [
  'mode',
  'xmitHashPolicy',
  'lacpRate',
  'arpValidate',
  'arpAllTargets',
  'primaryReselect',
  'failOverMac',
  'adSelect',
] as const;

/** validateLegacyBond applies upstream's checkBond to `machine.network.interfaces[].bond`. */
export function validateLegacyBond(b: LegacyBond, at: string, ctx: RuleContext): void {
  for (const k of enumFields) checkBondEnum(k, b[k], `${at}.${k}`, ctx);
  // an unknown mode is reported above; the mode rules then read it as the default, as upstream does
  const mode = b.mode && (bondEnums.mode as readonly string[]).includes(b.mode) ? b.mode : 'balance-rr';
  const miimon = b.miimon ?? 0;
  for (const [k, name] of [
    ['updelay', 'upDelay'],
    ['downdelay', 'downDelay'],
  ] as const) {
    const v = b[k] ?? 0;
    if (miimon === 0 && v !== 0) ctx.error(`${at}.${k}`, `bond.${name} can't be set if miiMon is zero`);
    if (miimon !== 0 && v % miimon !== 0)
      ctx.error(`${at}.${k}`, `bond.${name} should be a multiple of miiMon`);
  }
  if (b.arpIPTarget?.length) ctx.error(`${at}.arpIPTarget`, 'bond.arpIPTarget is not supported');
  if (b.lacpRate && mode !== '802.3ad')
    ctx.error(`${at}.lacpRate`, 'bond.lacpRate is only available in 802.3ad mode');
  if (b.adActorSystem) ctx.error(`${at}.adActorSystem`, 'bond.adActorSystem is not supported');
  const lacpOrLB = ['802.3ad', 'balance-alb', 'balance-tlb'].includes(mode);
  const lb = ['balance-alb', 'balance-tlb'].includes(mode);
  if (lacpOrLB && b.arpValidate)
    ctx.error(`${at}.arpValidate`, `bond.arpValidate is not available in ${mode} mode`);
  if (!(lb || mode === 'active-backup') && b.primary)
    ctx.error(`${at}.primary`, `bond.primary is not available in ${mode} mode`);
  if (lacpOrLB && (b.arpInterval ?? 0) > 0)
    ctx.error(`${at}.arpInterval`, `bond.arpInterval is not available in ${mode} mode`);
  if (mode !== 'balance-rr' && (b.packetsPerSlave ?? 0) > 1)
    ctx.error(`${at}.packetsPerSlave`, `bond.packetsPerSlave is not available in ${mode} mode`);
  if (!lb && (b.tlbDynamicLb ?? 0) > 0)
    ctx.error(`${at}.tlbDynamicLb`, `bond.tlbDynamicTLB is not available in ${mode} mode`);
  if (mode !== '802.3ad' && (b.adActorSysPrio ?? 0) > 0)
    ctx.error(`${at}.adActorSysPrio`, 'bond.adActorSysPrio is only available in 802.3ad mode');
  if (mode !== '802.3ad' && (b.adUserPortKey ?? 0) > 0)
    ctx.error(`${at}.adUserPortKey`, 'bond.adUserPortKey is only available in 802.3ad mode');
}
