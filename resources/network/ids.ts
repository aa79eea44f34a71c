// Resource ids of the network types, spelled as upstream's helpers spell them.
import { Families, Family } from './address-enums.js';
import { Operator, Operators } from './operator-spec.js';
import { RoutingTable, RoutingTables } from './route-enums.js';

/** linkID: a link is named by its name. */
export const linkID = (linkName: string): string => linkName;

/** addressID: `eth0/10.5.0.2/24`. */
export const addressID = (linkName: string, prefix: string): string =>
  `${linkName}/${prefix === '' ? 'invalid Prefix' : prefix}`;

/**
 * routeID: `[table/][link/ for IPv6]family/gateway/destination/priority`; the main table is left out,
 * and an unset gateway or destination is empty (`inet4/10.5.0.1//1024` is a default route).
 */
export function routeID(
  table: number,
  family: number,
  destination: string,
  gateway: string,
  priority: number,
  outLinkName: string,
): string {
  let prefix = table === RoutingTable.Main ? '' : `${RoutingTables.text(table)}/`;
  if (family === Family.Inet6) prefix += `${outLinkName}/`;
  return `${prefix}${Families.text(family)}/${gateway}/${destination}/${priority}`;
}

/** routingRuleID: `inet4/01000`, the priority zero-padded to five digits. */
export const routingRuleID = (family: number, priority: number): string =>
  `${Families.text(family)}/${String(priority).padStart(5, '0')}`;

/** operatorID: `dhcp4/eth0`, `dhcp6/eth0`, or for a VIP `vip/eth0/10.5.0.10`. */
export const operatorID = (operator: Operator, linkName: string, vipIP = ''): string =>
  operator === Operator.VIP
    ? `${Operators.text(operator)}/${linkName}/${vipIP === '' ? 'invalid IP' : vipIP}`
    : `${Operators.text(operator)}/${linkName}`;

/** DEFAULT_ROUTE_METRIC is the priority of routes nobody gave one. */
export const DEFAULT_ROUTE_METRIC = 1024;
