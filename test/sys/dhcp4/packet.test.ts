import { describe, expect, it } from 'vitest';
import { checksum, decodeDatagram, encodeDatagram } from '../../../src/sys/dhcp4/packet.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const d = { src: '0.0.0.0', dst: '255.255.255.255', srcPort: 68, dstPort: 67, payload: Buffer.from('dhcp') };

describe('IPv4 and UDP headers', () => {
  it('computes the Internet checksum of RFC 1071’s example, odd lengths padded', () => {
    expect(checksum(hex('0001 f203 f4f5 f6f7'))).toBe(0x220d);
    expect(checksum(hex('01'))).toBe(0xfeff);
  });

  it('builds both headers with their checksums', () => {
    const b = encodeDatagram(d);
    // version/IHL, CS6, total 32, id 0, no fragment, TTL 64, UDP, checksum, source, destination
    expect(b.subarray(0, 20)).toEqual(hex('45c0 0020 0000 0000 4011 7a0e 00000000 ffffffff'));
    // ports 68 → 67, length 12, checksum over the pseudo-header
    expect(b.subarray(20, 26)).toEqual(hex('0044 0043 000c'));
    expect(checksum(b.subarray(0, 20))).toBe(0);
    expect(decodeDatagram(b)).toEqual(d);
  });

  it('takes a frame padded past the IP length, and a datagram sent without a UDP checksum', () => {
    const b = Buffer.concat([encodeDatagram(d), Buffer.alloc(14)]);
    expect(decodeDatagram(b).payload.toString()).toBe('dhcp');
    b.writeUInt16BE(0, 26);
    expect(decodeDatagram(b).payload.toString()).toBe('dhcp');
  });

  it('refuses bad checksums, unless the kernel says the UDP one is still to be filled', () => {
    const badUdp = encodeDatagram(d);
    badUdp[28]! ^= 1;
    expect(() => decodeDatagram(badUdp)).toThrow(/bad UDP checksum/);
    expect(decodeDatagram(badUdp, true).payload.toString()).toBe('ehcp');
    const badIp = encodeDatagram(d);
    badIp[8] = 1;
    expect(() => decodeDatagram(badIp, true)).toThrow(/bad IP header checksum/);
  });

  it('refuses fragments, other protocols and lengths that do not fit', () => {
    const withHeader = (edit: (b: Buffer) => void) => {
      const b = encodeDatagram(d);
      edit(b);
      b.writeUInt16BE(0, 10);
      b.writeUInt16BE(checksum(b.subarray(0, 20)), 10);
      return b;
    };
    expect(() => decodeDatagram(withHeader((b) => b.writeUInt16BE(0x2000, 6)))).toThrow(/fragment/);
    expect(() => decodeDatagram(withHeader((b) => (b[9] = 6)))).toThrow(/IP protocol 6/);
    expect(() => decodeDatagram(withHeader((b) => b.writeUInt16BE(100, 2)))).toThrow(/IP lengths/);
    expect(() => decodeDatagram(withHeader((b) => b.writeUInt16BE(99, 24)))).toThrow(/UDP length/);
    expect(() => decodeDatagram(hex('60000000'))).toThrow(/IP packet of 4 bytes/);
  });
});
