// LinkConfig: addresses, routes, MTU and state of one physical link (replaces machine.network.interfaces).
import { family, isCIDR, isIPAddress } from '../../validate/formats.js';
import { defineDocument, type NamedHeader } from '../definition.js';
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
  type?: string;
}
export interface LinkConfig extends NamedHeader {
  up?: boolean;
  mtu?: number;
  addresses?: LinkAddress[];
  routes?: LinkRoute[];
  multicast?: boolean;
}

const routeTypes = [
  'unicast',
  'local',
  'broadcast',
  'anycast',
  'multicast',
  'blackhole',
  'unreachable',
  'prohibit',
];

const linkSchema = {
  up: bool,
  mtu: int,
  addresses: list(struct({ address: str, routePriority: int })),
  routes: list(
    struct({ destination: str, gateway: str, source: str, metric: int, mtu: int, table: str, type: str }),
  ),
  multicast: bool,
};

export const LinkConfigDefinition = defineDocument<LinkConfig>({
  kind: 'LinkConfig',
  named: true,
  schema: struct({ ...namedHeader, ...linkSchema }),
  validate(doc, ctx) {
    if (!doc.name) ctx.error('name', 'name must be specified');
    if (doc.mtu !== undefined && (doc.mtu < 68 || doc.mtu > 65535))
      ctx.error('mtu', `MTU ${doc.mtu} is out of range 68-65535`);
    doc.addresses?.forEach((a, i) => {
      if (!a.address) ctx.error(`addresses[${i}].address`, 'address must be specified');
      else if (!isCIDR(a.address)) ctx.error(`addresses[${i}].address`, `${a.address} is not a CIDR`);
    });
    doc.routes?.forEach((r, i) => {
      const at = `routes[${i}]`;
      if (r.destination && !isCIDR(r.destination))
        ctx.error(`${at}.destination`, `${r.destination} is not a CIDR`);
      if (r.gateway && !isIPAddress(r.gateway))
        ctx.error(`${at}.gateway`, `${r.gateway} is not an IP address`);
      if (r.source && !isIPAddress(r.source)) ctx.error(`${at}.source`, `${r.source} is not an IP address`);
      if (!r.destination && !r.gateway) ctx.error(at, 'either destination or gateway must be set');
      if (r.destination && r.gateway && isCIDR(r.destination) && isIPAddress(r.gateway))
        if (family(r.destination) !== family(r.gateway))
          ctx.error(`${at}.gateway`, 'destination and gateway address families differ');
      if (r.type !== undefined && !routeTypes.includes(r.type))
        ctx.error(`${at}.type`, `invalid route type ${JSON.stringify(r.type)}`);
    });
  },
});
