import { describe, expect, it } from 'vitest';
import { bytesToIp, ipToBytes } from '../../../src/pki/internal/ip.js';

describe('SAN IP encoding', () => {
  it.each([
    ['10.5.0.2', '0a050002'],
    ['::1', '00000000000000000000000000000001'],
    ['fd00::1:2', 'fd000000000000000000000000010002'],
    ['2001:db8::', '20010db8000000000000000000000000'],
    ['::ffff:192.168.1.1', 'c0a80101'], // IPv4-mapped becomes 4 octets, as Go stores it
  ])('%s → %s', (ip, bytes) => {
    expect(ipToBytes(ip)?.toString('hex')).toBe(bytes);
  });

  it('rejects non-addresses and zoned addresses', () => {
    for (const bad of ['', 'node-1', '10.0.0.256', 'fe80::1%eth0', '1::2::3'])
      expect(ipToBytes(bad)).toBeUndefined();
  });

  it('prints addresses in RFC 5952 form', () => {
    expect(bytesToIp(ipToBytes('fd00:0:0:0:0:0:1:2')!)).toBe('fd00::1:2');
    expect(bytesToIp(ipToBytes('1:0:0:2:0:0:0:3')!)).toBe('1:0:0:2::3');
    expect(bytesToIp(ipToBytes('1:0:2:3:4:5:6:7')!)).toBe('1:0:2:3:4:5:6:7');
    expect(bytesToIp(ipToBytes('::')!)).toBe('::');
    expect(bytesToIp(ipToBytes('127.0.0.1')!)).toBe('127.0.0.1');
  });
});
