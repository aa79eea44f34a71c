import { describe, expect, it } from 'vitest';
import { dhcp4Specs } from '../../../../controllers/network/internal/dhcp4-specs.js';
import { Scope } from '../../../../resources/network/index.js';
import type { Lease } from '../../../../src/sys/dhcp4/lease.js';

const lease = (l: Partial<Lease>): Lease => ({
  address: '10.0.2.15',
  prefix: 24,
  routers: [],
  routes: [],
  dns: [],
  search: [],
  ntp: [],
  serverId: '10.0.2.2',
  leaseTime: 86400,
  t1: 43200,
  t2: 75600,
  acquiredAt: 0,
  ...l,
});
const opts = { linkName: 'eth0', routeMetric: 1024, useHostname: true };

describe('dhcp4Specs', () => {
  it('makes a default route per router and an on-link route to a router outside the subnet', () => {
    const s = dhcp4Specs(lease({ prefix: 32, routers: ['172.31.1.1'], mtu: 1450 }), opts);
    expect(s.addresses.map((a) => a.address)).toEqual(['10.0.2.15/32']);
    expect(s.routes.map((r) => [r.destination, r.gateway, r.scope])).toEqual([
      ['', '172.31.1.1', Scope.Global],
      ['172.31.1.1/32', '', Scope.Link],
    ]);
    expect(s.links.map((l) => [l.name, l.mtu, l.up])).toEqual([['eth0', 1450, true]]);
  });

  it('takes classless routes instead of routers, and the hostname only when asked', () => {
    const s = dhcp4Specs(
      lease({
        routes: [
          { destination: '0.0.0.0/0', gateway: '10.0.2.2' },
          { destination: '192.168.0.0/16', gateway: '10.0.2.3' },
        ],
        routers: [],
        hostname: 'node1.lab',
      }),
      opts,
    );
    expect(s.routes.map((r) => [r.destination, r.gateway])).toEqual([
      ['', '10.0.2.2'],
      ['192.168.0.0/16', '10.0.2.3'],
    ]);
    expect(s.hostnames).toMatchObject([{ hostname: 'node1', domainname: 'lab' }]);
    expect(dhcp4Specs(lease({ hostname: 'x' }), { ...opts, useHostname: false }).hostnames).toEqual([]);
  });
});
