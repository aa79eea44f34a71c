import { describe, expect, it } from 'vitest';
import { requestedOptions } from '../../../src/sys/dhcp4/client.js';
import { INFINITE, leaseFromAck, renewalTimes } from '../../../src/sys/dhcp4/lease.js';
import { BOOTREPLY, newMessage } from '../../../src/sys/dhcp4/message.js';
import { encodeOptions, type Options } from '../../../src/sys/dhcp4/options.js';

const ack = (o: Options, yiaddr = '10.1.2.3') => {
  const m = newMessage({ xid: 1, chaddr: Buffer.alloc(6), op: BOOTREPLY, yiaddr });
  m.options = encodeOptions({ messageType: 5, serverId: '10.1.2.1', ...o });
  return m;
};

describe('DHCPv4 lease', () => {
  it('lasts 30 minutes without a lease time, renews at half, rebinds at 7/8', () => {
    expect(leaseFromAck(ack({}), 0)).toMatchObject({ leaseTime: 1800, t1: 900, t2: 1575, prefix: 8 });
    expect(renewalTimes(3600, 1000, 2000)).toEqual([1000, 2000]);
    expect(renewalTimes(3600, 3000, 2000)).toEqual([3000, 3150]); // a T2 before T1: RFC's 7/8
    expect(renewalTimes(3600, 4000, 5000)).toEqual([1800, 3150]); // past the lease: RFC's defaults
    expect(renewalTimes(120, 2, 3)).toEqual([5, 5]); // never renew sooner than 5 s
    expect(renewalTimes(INFINITE)).toEqual([Infinity, Infinity]);
    expect(leaseFromAck(ack({ leaseTime: INFINITE }), 0)?.leaseTime).toBe(Infinity);
  });

  it('drops the routers when classless routes are given (RFC 3442)', () => {
    const routes = [{ destination: '0.0.0.0/0', gateway: '10.1.2.254' }];
    expect(leaseFromAck(ack({ routers: ['10.1.2.1'], classlessRoutes: routes }), 0)).toMatchObject({
      routers: [],
      routes,
    });
    expect(leaseFromAck(ack({ routers: ['10.1.2.1'] }), 0)).toMatchObject({
      routers: ['10.1.2.1'],
      routes: [],
    });
  });

  it('reads the prefix from the mask, the class when there is none or it is not contiguous', () => {
    expect(leaseFromAck(ack({ subnetMask: '255.255.240.0' }), 0)?.prefix).toBe(20);
    expect(leaseFromAck(ack({ subnetMask: '255.255.255.255' }), 0)?.prefix).toBe(32);
    expect(leaseFromAck(ack({ subnetMask: '255.0.255.0' }, '172.16.0.5'), 0)?.prefix).toBe(16);
    expect(leaseFromAck(ack({}, '192.0.2.5'), 0)?.prefix).toBe(24);
  });

  it('is not a lease without an address or a server', () => {
    expect(leaseFromAck(ack({}, '0.0.0.0'), 0)).toBeNull();
    const m = ack({});
    m.options.delete(54);
    expect(leaseFromAck(m, 0)).toBeNull();
    expect(leaseFromAck(m, 0, '10.1.2.1')?.serverId).toBe('10.1.2.1');
  });

  it('asks for what upstream asks for, and not for a hostname it sends', () => {
    expect(requestedOptions({}).sort((a, b) => a - b)).toEqual([1, 3, 6, 12, 15, 26, 28, 42, 119, 121]);
    expect(requestedOptions({ hostname: 'n' })).not.toContain(12);
    expect(requestedOptions({ skipHostnameRequest: true })).not.toContain(12);
    expect(requestedOptions({ requestMtu: false })).not.toContain(26);
  });
});
