// Fields every link document shares (upstream's CommonLinkConfig), their schema and upstream's rules for them.
import type { RuleContext } from '../../validate/context.js';
import { isCIDR, isIPAddress } from '../../validate/formats.js';
import type { NamedHeader } from '../definition.js';
import { bool, int, list, namedHeader, str, struct } from '../schema.js';

export interface LinkAddress {
  address?: string;
  routePriority?: number;
}
export interface LinkRoute {
  destination?: string;
  gateway?: string;
  source?: string;
  metric?: number;
  mtu?: number;
  table?: string;
}
export interface CommonLink extends NamedHeader {
  up?: boolean;
  mtu?: number;
  addresses?: LinkAddress[];
  routes?: LinkRoute[];
  multicast?: boolean;
}

/** commonLinkFields goes after each kind's own fields: upstream inlines CommonLinkConfig last. */
export const commonLinkFields = {
  up: bool,
  mtu: int,
  addresses: list(struct({ address: str, routePriority: int })),
  routes: list(struct({ destination: str, gateway: str, source: str, metric: int, mtu: int, table: str })),
  multicast: bool,
};
export const linkHeader = namedHeader;

// an all-zero address is parseable but names no interface address or route endpoint
const unspecified = (ip: string) => /^(0+\.0+\.0+\.0+|[0:]*::[0:]*|[0:]+)$/.test(ip.replace(/\/\d+$/, ''));

const UINT32_MAX = 4294967295;

// upstream decodes these into uint32, so yaml.v3 refuses a negative or wider value before Validate runs
function checkUint32(value: number | undefined, at: string, ctx: RuleContext): void {
  if (value !== undefined && (value < 0 || value > UINT32_MAX))
    ctx.error(at, `${at.replace(/^.*\./, '')} ${value} is out of range 0-${UINT32_MAX}`);
}

// nethelpers.RoutingTable's names: 'unspec' (unset), 1-252 by number, then 253-255 by name only
const routingTables = new Set([
  'unspec',
  ...Array.from({ length: 252 }, (_, i) => String(i + 1)),
  'default',
  'main',
  'local',
]);
/** isRoutingTable matches upstream's RoutingTableString, which also accepts any letter case. */
export const isRoutingTable = (s: string): boolean => routingTables.has(s.toLowerCase());

/** validateCommonLink requires a name, then checks the shared fields. */
export function validateCommonLink(doc: CommonLink, ctx: RuleContext): void {
  validateLinkName(doc, ctx);
  validateLinkFields(doc, ctx);
}

export function validateLinkName(doc: NamedHeader, ctx: RuleContext): void {
  if (!doc.name) ctx.error('name', 'name must be specified');
}

/**
 * validateLinkFields checks addresses and routes as upstream's CommonLinkConfig.Validate, plus what
 * upstream's decoder refuses first: uint32 overflow and unknown routing table names.
 */
export function validateLinkFields(doc: CommonLink, ctx: RuleContext): void {
  checkUint32(doc.mtu, 'mtu', ctx);
  doc.addresses?.forEach((a, i) => {
    const at = `addresses[${i}].address`;
    if (!a.address) ctx.error(at, `address ${i} must be specified`);
    else if (!isCIDR(a.address)) ctx.error(at, `address ${i} must be a valid IP prefix`);
    else if (unspecified(a.address)) ctx.error(at, `address ${i} must be a valid IP address`);
    checkUint32(a.routePriority, `addresses[${i}].routePriority`, ctx);
  });
  doc.routes?.forEach((r, i) => {
    const at = `routes[${i}]`;
    if (r.destination && (!isCIDR(r.destination) || unspecified(r.destination)))
      ctx.error(`${at}.destination`, `route ${i} destination must be a valid IP prefix`);
    if (r.gateway && (!isIPAddress(r.gateway) || unspecified(r.gateway)))
      ctx.error(`${at}.gateway`, `route ${i} gateway must be a valid IP address`);
    if (r.source && (!isIPAddress(r.source) || unspecified(r.source)))
      ctx.error(`${at}.source`, `route ${i} source must be a valid IP address`);
    checkUint32(r.metric, `${at}.metric`, ctx);
    checkUint32(r.mtu, `${at}.mtu`, ctx);
    if (r.table !== undefined && !isRoutingTable(r.table))
      ctx.error(`${at}.table`, `${r.table} does not belong to RoutingTable values`);
  });
}

/** isHardwareAddr accepts a MAC (6, 8 or 20 bytes) in the colon, dash or dotted forms Go's net.ParseMAC reads. */
export const isHardwareAddr = (s: string): boolean =>
  /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^([0-9a-f]{2}[:-]){7}[0-9a-f]{2}$|^([0-9a-f]{2}[:-]){19}[0-9a-f]{2}$|^([0-9a-f]{4}\.){2,9}[0-9a-f]{4}$/i.test(
    s,
  );

export function validateHardwareAddr(mac: string | undefined, ctx: RuleContext): void {
  if (mac && !isHardwareAddr(mac)) ctx.error('hardwareAddr', `invalid MAC address ${JSON.stringify(mac)}`);
}
