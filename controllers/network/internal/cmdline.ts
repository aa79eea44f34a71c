// The kernel command line's network arguments (ip=, bond=, vlan=, talos.hostname=,
// talos.network.interface.ignore=) parsed into upstream's CmdlineNetworking, without touching the OS.
import {
  bitLen,
  contains,
  familyOf,
  maskLength,
  type Prefix,
  parseIP,
  parsePrefix,
  prefixString,
} from './ip.js';
import { firstLink, type LinkInfo, type LinkResolver, linkResolver } from './links.js';

export const KERNEL_PARAM_HOSTNAME = 'talos.hostname';
export const KERNEL_PARAM_INTERFACE_IGNORE = 'talos.network.interface.ignore';
export const KERNEL_PARAM_BOND = 'bond';
export const KERNEL_PARAM_VLAN = 'vlan';
export const KERNEL_PARAM_IP = 'ip';

/** DEFAULT_ROUTE_METRIC is the metric of routes without one (upstream network.DefaultRouteMetric). */
export const DEFAULT_ROUTE_METRIC = 1024;

/** One `ip=` argument: a link with an address and gateway, or a link that runs DHCP. */
export interface CmdlineLinkConfig {
  linkName: string;
  /** `addr/len`; absent when the client IP field is empty */
  address?: string;
  gateway?: string;
  dhcp: boolean;
}

/** Bond driver options by their kernel names, with upstream's defaults filled in. */
export interface CmdlineBondMaster {
  mode: string;
  hashPolicy: string;
  lacpRate: string;
  arpValidate: string;
  arpAllTargets: string;
  primaryIndex: number;
  primaryReselect: string;
  failOverMac: string;
  adSelect: string;
  adLACPActive: string;
  arpIPTargets: string[];
  miimon: number;
  upDelay: number;
  downDelay: number;
  arpInterval: number;
  resendIGMP: number;
  minLinks: number;
  lpInterval: number;
  packetsPerSlave: number;
  numPeerNotif: number;
  tlbDynamicLB: number;
  allSlavesActive: number;
  useCarrier: boolean;
  adActorSysPrio: number;
  adUserPortKey: number;
  peerNotifyDelay: number;
  missedMax: number;
}

/** A link the command line asks for, at the cmdline layer: always up. */
export interface CmdlineLink {
  name: string;
  up: true;
  logical: boolean;
  /** 0 = leave the kernel's MTU */
  mtu: number;
  kind: '' | 'bond' | 'vlan';
  parentName: string;
  vlan?: { vid: number; protocol: '802.1q' };
  bondMaster?: CmdlineBondMaster;
  bondSlave?: { masterName: string; slaveIndex: number };
}

/** CmdlineNetworking is everything the network arguments of one command line say. */
export interface CmdlineNetworking {
  linkConfigs: CmdlineLinkConfig[];
  hostname: string;
  dnsAddresses: string[];
  ntpAddresses: string[];
  ignoreInterfaces: string[];
  links: CmdlineLink[];
}

export type CmdlineErrorCode =
  | 'address'
  | 'gateway'
  | 'netmask'
  | 'dns'
  | 'ntp'
  | 'bond-option'
  | 'bond-mtu'
  | 'bond-primary'
  | 'vlan';

/** CmdlineError names the argument that does not parse, as `key=value`. */
export class CmdlineError extends Error {
  constructor(
    readonly code: CmdlineErrorCode,
    readonly argument: string,
    message: string,
  ) {
    super(`${argument}: ${message}`);
    this.name = 'CmdlineError';
  }
}

export const isCmdlineError = (e: unknown): e is CmdlineError => e instanceof CmdlineError;

/** KernelParams is a parsed command line: every value of each key, in order (a bare key has value ''). */
export type KernelParams = ReadonlyMap<string, readonly string[]>;

/** parseKernelParams splits on blanks outside double quotes, and drops the quotes, as the kernel does. */
export function parseKernelParams(cmdline: string): KernelParams {
  const out = new Map<string, string[]>();
  for (const word of cmdline.match(/(?:[^\s"]+|"[^"]*"?)+/g) ?? []) {
    const arg = word.replace(/"/g, '');
    const eq = arg.indexOf('=');
    const key = eq < 0 ? arg : arg.slice(0, eq);
    const value = eq < 0 ? '' : arg.slice(eq + 1);
    const values = out.get(key) ?? [];
    values.push(value);
    out.set(key, values);
  }
  return out;
}

/** splitIPArgument splits on ':' outside brackets, then drops the brackets of each field. */
export function splitIPArgument(val: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < val.length; i++) {
    const c = val[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ':' && depth === 0) {
      parts.push(trimBrackets(val.slice(start, i)));
      start = i + 1;
    }
  }
  parts.push(trimBrackets(val.slice(start)));
  return parts;
}

const trimBrackets = (s: string) => s.replace(/^[[\]]+|[[\]]+$/g, '');

const DHCP = 'dhcp';

export interface ParseOptions {
  /** the node's links: aliases resolve to names, and the first non-loopback one is the default `ip=` device */
  links?: readonly LinkInfo[];
}

/** parseCmdlineNetwork reads the network arguments; the first malformed one is a CmdlineError. */
export function parseCmdlineNetwork(
  cmdline: string | KernelParams,
  opts: ParseOptions = {},
): CmdlineNetworking {
  const params = typeof cmdline === 'string' ? parseKernelParams(cmdline) : cmdline;
  const links = opts.links ?? [];
  const resolve = linkResolver(links);
  const settings: CmdlineNetworking = {
    linkConfigs: [],
    hostname: params.get(KERNEL_PARAM_HOSTNAME)?.[0] ?? '',
    dnsAddresses: [],
    ntpAddresses: [],
    ignoreInterfaces: (params.get(KERNEL_PARAM_INTERFACE_IGNORE) ?? []).map(resolve),
    links: [],
  };
  for (const value of params.get(KERNEL_PARAM_IP) ?? []) parseIPArgument(value, settings, resolve, links);
  const bond = params.get(KERNEL_PARAM_BOND)?.[0];
  if (bond !== undefined) parseBond(bond, settings, resolve, links);
  const vlan = params.get(KERNEL_PARAM_VLAN)?.[0];
  if (vlan !== undefined) parseVLAN(vlan, settings, resolve);
  return settings;
}

const upLink = (name: string): CmdlineLink => ({
  name,
  up: true,
  logical: false,
  mtu: 0,
  kind: '',
  parentName: '',
});

function parseIP1(field: string, code: CmdlineErrorCode, arg: string, what: string): string {
  const ip = parseIP(field);
  if (ip === undefined)
    throw new CmdlineError(code, arg, `${what} ${JSON.stringify(field)} is not an IP address`);
  return ip;
}

// ip=<client>:<server>:<gw>:<netmask>:<hostname>:<device>:<autoconf>:<dns0>:<dns1>:<ntp0>, ip=<dev>:dhcp, ip=dhcp
function parseIPArgument(
  value: string,
  settings: CmdlineNetworking,
  resolve: LinkResolver,
  links: readonly LinkInfo[],
): void {
  const arg = `${KERNEL_PARAM_IP}=${value}`;
  const fields = splitIPArgument(value);
  // the default DHCP already runs on every physical link
  if (fields.length === 1 && fields[0] === DHCP) return;
  if (fields.length === 2 && fields[1] === DHCP) {
    const linkName = resolve(fields[0]!);
    settings.linkConfigs.push({ linkName, dhcp: true });
    settings.links.push(upLink(linkName));
    return;
  }
  const cfg: CmdlineLinkConfig = { linkName: '', dhcp: false };
  let address: Prefix | undefined;
  fields.forEach((f, i) => {
    if (f === '') return;
    switch (i) {
      case 0: {
        const ip = parseIP1(f, 'address', arg, 'client address');
        address = { ip, bits: bitLen(ip) }; // without a netmask: the whole address
        break;
      }
      case 2:
        cfg.gateway = parseIP1(f, 'gateway', arg, 'gateway');
        break;
      case 3: {
        let bits: number;
        if (/^[+-]?\d+$/.test(f)) bits = Number(f);
        else bits = maskLength(parseIP1(f, 'netmask', arg, 'netmask'));
        if (address) {
          if (bits < 0 || bits > bitLen(address.ip))
            throw new CmdlineError(
              'netmask',
              arg,
              `netmask ${JSON.stringify(f)} is out of range for ${address.ip}`,
            );
          address = { ip: address.ip, bits };
        }
        break;
      }
      case 4:
        if (settings.hostname === '') settings.hostname = f;
        break;
      case 5:
        cfg.linkName = resolve(f);
        break;
      case 6:
        if (f === DHCP) cfg.dhcp = true; // `off`, `none` and the rest mean static
        break;
      case 7:
      case 8:
        settings.dnsAddresses.push(parseIP1(f, 'dns', arg, 'DNS server'));
        break;
      case 9:
        settings.ntpAddresses.push(parseIP1(f, 'ntp', arg, 'NTP server'));
        break;
    }
  });
  if (address) cfg.address = prefixString(address);
  if (cfg.linkName === '') cfg.linkName = firstLink(links);
  settings.linkConfigs.push(cfg);
  settings.links.push(upLink(cfg.linkName));
}

/** defaultBondMaster is a balance-rr bond with upstream's defaults (FillDefaults). */
export function defaultBondMaster(): CmdlineBondMaster {
  return {
    mode: 'balance-rr',
    hashPolicy: 'layer2',
    lacpRate: 'slow',
    arpValidate: 'none',
    arpAllTargets: 'any',
    primaryIndex: 0,
    primaryReselect: 'always',
    failOverMac: 'none',
    adSelect: 'stable',
    adLACPActive: 'on',
    arpIPTargets: [],
    miimon: 0,
    upDelay: 0,
    downDelay: 0,
    arpInterval: 0,
    resendIGMP: 0,
    minLinks: 0,
    lpInterval: 0,
    packetsPerSlave: 0,
    numPeerNotif: 0,
    tlbDynamicLB: 0,
    allSlavesActive: 0,
    useCarrier: true,
    adActorSysPrio: 0,
    adUserPortKey: 0,
    peerNotifyDelay: 0,
    missedMax: 0,
  };
}

/** fillBondDefaults gives unset options the values the kernel would pick, as upstream does before applying. */
export function fillBondDefaults(b: CmdlineBondMaster): void {
  b.useCarrier = true; // newer kernels no longer let it be turned off
  if (b.resendIGMP === 0) b.resendIGMP = 1;
  if (b.lpInterval === 0) b.lpInterval = 1;
  if (b.packetsPerSlave === 0) b.packetsPerSlave = 1;
  if (b.numPeerNotif === 0) b.numPeerNotif = 1;
  const tlbOrAlb = b.mode === 'balance-alb' || b.mode === 'balance-tlb';
  if (!tlbOrAlb) b.tlbDynamicLB = 1;
  if (b.mode === '802.3ad' && b.adActorSysPrio === 0) b.adActorSysPrio = 65535;
  if (b.mode !== '802.3ad' && !tlbOrAlb && b.missedMax === 0) b.missedMax = 2;
  if (b.mode !== '802.3ad') b.adLACPActive = 'on';
}

// the kernel's names for each enumerated option (modinfo bonding)
const BOND_ENUMS = {
  mode: ['balance-rr', 'active-backup', 'balance-xor', 'broadcast', '802.3ad', 'balance-tlb', 'balance-alb'],
  xmit_hash_policy: ['layer2', 'layer3+4', 'layer2+3', 'encap2+3', 'encap3+4'],
  lacp_rate: ['slow', 'fast'],
  arp_validate: ['none', 'active', 'backup', 'all', 'filter', 'filter-active', 'filter-backup'],
  arp_all_targets: ['any', 'all'],
  primary_reselect: ['always', 'better', 'failure'],
  fail_over_mac: ['none', 'active', 'follow'],
  ad_select: ['stable', 'bandwidth', 'count'],
} as const;
type BondEnumOption = keyof typeof BOND_ENUMS;
const ENUM_FIELD: Record<BondEnumOption, keyof CmdlineBondMaster> = {
  mode: 'mode',
  xmit_hash_policy: 'hashPolicy',
  lacp_rate: 'lacpRate',
  arp_validate: 'arpValidate',
  arp_all_targets: 'arpAllTargets',
  primary_reselect: 'primaryReselect',
  fail_over_mac: 'failOverMac',
  ad_select: 'adSelect',
};
const NUMBER_FIELD: Record<string, keyof CmdlineBondMaster> = {
  miimon: 'miimon',
  updelay: 'upDelay',
  downdelay: 'downDelay',
  arp_interval: 'arpInterval',
  resend_igmp: 'resendIGMP',
  min_links: 'minLinks',
  lp_interval: 'lpInterval',
  packets_per_slave: 'packetsPerSlave',
  num_grat_arp: 'numPeerNotif',
  num_unsol_na: 'numPeerNotif',
  all_slaves_active: 'allSlavesActive',
};

/** parseBondOptions reads `mode=802.3ad,miimon=100,...` (modinfo bonding names); `primary` is a link name. */
export function parseBondOptions(options: string, arg: string): { bond: CmdlineBondMaster; primary: string } {
  const bond = defaultBondMaster();
  let primary = '';
  for (const opt of options.split(',')) {
    const [key = '', value = ''] = opt.split('=');
    const num = () => {
      if (!/^[+-]?\d+$/.test(value))
        throw new CmdlineError(
          'bond-option',
          arg,
          `bond option ${key}: ${JSON.stringify(value)} is not a number`,
        );
      return Number(value);
    };
    if (key in BOND_ENUMS) {
      const names = BOND_ENUMS[key as BondEnumOption] as readonly string[];
      // upstream's ByName parsers take '' for the default
      if (value !== '' && !names.includes(value))
        throw new CmdlineError(
          'bond-option',
          arg,
          `bond option ${key}: invalid value ${JSON.stringify(value)}`,
        );
      if (value !== '') (bond[ENUM_FIELD[key as BondEnumOption]] as string) = value;
    } else if (key in NUMBER_FIELD) {
      (bond[NUMBER_FIELD[key]!] as number) = num();
    } else if (key === 'arp_ip_target') {
      bond.arpIPTargets = value.split(';').map((t) => parseIP1(t, 'bond-option', arg, 'arp_ip_target'));
    } else if (key === 'primary') {
      primary = value;
    } else if (key === 'use_carrier') {
      num(); // parsed for its error only: the kernel keeps carrier detection on
    } else {
      throw new CmdlineError('bond-option', arg, `unknown bond option: ${key}`);
    }
  }
  return { bond, primary };
}

// bond=<name>[:<slaves,comma>[:<options>[:<mtu>]]] (dracut)
function parseBond(
  value: string,
  settings: CmdlineNetworking,
  resolve: LinkResolver,
  links: readonly LinkInfo[],
): void {
  const arg = `${KERNEL_PARAM_BOND}=${value}`;
  const fields = value.split(':');
  const name = fields[0] ?? '';
  const slaves = fields[1] ? fields[1].split(',') : ['eth0', 'eth1'];
  const { bond, primary } = fields[2]
    ? parseBondOptions(fields[2], arg)
    : { bond: defaultBondMaster(), primary: '' };
  if (primary !== '') {
    const link = links.find((l) => l.name === resolve(primary));
    if (link?.index === undefined)
      throw new CmdlineError('bond-primary', arg, `bond primary link ${JSON.stringify(primary)} not found`);
    bond.primaryIndex = link.index;
  }
  fillBondDefaults(bond);
  const master: CmdlineLink = { ...upLink(name), logical: true, kind: 'bond', bondMaster: bond };
  if (fields[3]) {
    if (!/^\d+$/.test(fields[3]))
      throw new CmdlineError('bond-mtu', arg, `bond MTU ${JSON.stringify(fields[3])} is not a number`);
    master.mtu = Number(fields[3]);
  }
  settings.links.push(master);
  slaves.map(resolve).forEach((slave, slaveIndex) => {
    settings.links.push({ ...upLink(slave), bondSlave: { masterName: name, slaveIndex } });
  });
}

// vlan=<name>:<parent>, the name being <parent>.<id> or vlan<id> (dracut)
function parseVLAN(value: string, settings: CmdlineNetworking, resolve: LinkResolver): void {
  const arg = `${KERNEL_PARAM_VLAN}=${value}`;
  const colon = value.indexOf(':');
  if (colon < 0) throw new CmdlineError('vlan', arg, 'malformed vlan argument, expected <name>:<parent>');
  const vlanName = value.slice(0, colon);
  const phy = value.slice(colon + 1);
  const dot = vlanName.indexOf('.');
  let idText: string;
  if (dot >= 0) idText = vlanName.slice(dot + 1);
  else if (vlanName.startsWith('vlan')) idText = vlanName.slice('vlan'.length);
  else throw new CmdlineError('vlan', arg, 'malformed vlan name, expected <parent>.<id> or vlan<id>');
  const vid = /^[+-]?\d+$/.test(idText) ? Number(idText) : 0;
  if (vid < 1 || vid > 4095)
    throw new CmdlineError('vlan', arg, `invalid vlanID=${vid}, must be in the range 1..4095`);
  // the link is named after the parent as written, its parent is the resolved link
  const name = `${phy}.${vid}`;
  const vlanFields = {
    name,
    logical: true,
    kind: 'vlan' as const,
    parentName: resolve(phy),
    vlan: { vid, protocol: '802.1q' as const },
  };
  const existing = settings.links.find((l) => l.name === name);
  if (existing) Object.assign(existing, vlanFields);
  else settings.links.push({ ...upLink(name), ...vlanFields });
}

/** A route the command line asks for, at the cmdline layer. */
export interface CmdlineRoute {
  family: 4 | 6;
  /** '' = the default route */
  destination: string;
  gateway: string;
  source: string;
  outLinkName: string;
  priority: number;
  scope: 'global' | 'link';
}

/**
 * cmdlineRoutes are the default routes through each `ip=` gateway (metric 1024 + the argument's index,
 * so two gateways do not collide) and, for IPv4, a link-scope route to a gateway outside the subnet.
 */
export function cmdlineRoutes(settings: CmdlineNetworking): CmdlineRoute[] {
  const routes: CmdlineRoute[] = [];
  settings.linkConfigs.forEach((lc, idx) => {
    if (!lc.gateway) return;
    const family = familyOf(lc.gateway);
    const priority = DEFAULT_ROUTE_METRIC + idx;
    routes.push({
      family,
      destination: '',
      gateway: lc.gateway,
      source: '',
      outLinkName: lc.linkName,
      priority,
      scope: 'global',
    });
    if (family === 4 && !inSubnet(lc.address, lc.gateway))
      routes.push({
        family: 4,
        destination: `${lc.gateway}/32`,
        gateway: '',
        source: lc.address?.split('/')[0] ?? '',
        outLinkName: lc.linkName,
        priority,
        scope: 'link',
      });
  });
  return routes;
}

function inSubnet(address: string | undefined, ip: string): boolean {
  const p = address === undefined ? undefined : parsePrefix(address);
  return p !== undefined && contains(p, ip);
}
