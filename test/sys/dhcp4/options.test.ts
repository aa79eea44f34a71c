import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../src/sys/dhcp4/message.js';
import {
  decodeOptions,
  encodeOptions,
  type Options,
  type RawOptions,
} from '../../../src/sys/dhcp4/options.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const raw = (entries: [number, string][]): RawOptions => new Map(entries.map(([c, h]) => [c, hex(h)]));

describe('DHCPv4 options', () => {
  it('types every option the client reads', () => {
    const { options, invalid } = decodeOptions(
      raw([
        [1, 'ffffff00'],
        [3, 'c0000201 c0000202'],
        [6, '08080808'],
        [12, Buffer.from('node-1\0').toString('hex')],
        [15, Buffer.from('example.org').toString('hex')],
        [26, '05dc'],
        [28, 'c00002ff'],
        [42, 'c000027b'],
        [50, 'c000020a'],
        [51, '00000e10'],
        [53, '05'],
        [54, 'c0000201'],
        [55, '01030f'],
        [57, '05dc'],
        [58, '00000708'],
        [59, '00000c4e'],
        [61, '01020000000001'],
      ]),
    );
    expect(invalid).toEqual([]);
    expect(options).toEqual({
      subnetMask: '255.255.255.0',
      routers: ['192.0.2.1', '192.0.2.2'],
      dns: ['8.8.8.8'],
      hostname: 'node-1',
      domain: 'example.org',
      mtu: 1500,
      broadcast: '192.0.2.255',
      ntp: ['192.0.2.123'],
      requestedIp: '192.0.2.10',
      leaseTime: 3600,
      messageType: 5,
      serverId: '192.0.2.1',
      parameterList: [1, 3, 15],
      maxMessageSize: 1500,
      renewalTime: 1800,
      rebindingTime: 3150,
      clientId: hex('01020000000001'),
    });
  });

  it('reads RFC 3397’s compressed search list, split over three instances (RFC 3396)', () => {
    // the example of RFC 3397 §3: eng.apple.com, then marketing.apple.com pointing at offset 4
    const opts = hex('7709 03656e67 056170706c 7709 65 03636f6d 00 096d61 7709 726b6574696e67 c004 ff');
    const header = Buffer.alloc(240);
    header.writeUInt32BE(0x63825363, 236);
    const m = decodeMessage(Buffer.concat([header, opts]));
    expect(decodeOptions(m.options).options.domainSearch).toEqual(['eng.apple.com', 'marketing.apple.com']);
  });

  it('compresses a search list the same way, and reads its own output back', () => {
    const b = encodeOptions({ domainSearch: ['eng.apple.com', 'marketing.apple.com', 'apple.com'] }).get(
      119,
    )!;
    expect(b).toEqual(hex('03656e67 056170706c65 03636f6d 00 096d61726b6574696e67 c004 c004'));
    expect(decodeOptions(new Map([[119, b]])).options.domainSearch).toEqual([
      'eng.apple.com',
      'marketing.apple.com',
      'apple.com',
    ]);
  });

  it('refuses a search list pointer that loops or points forwards', () => {
    expect(decodeOptions(raw([[119, 'c000']])).invalid).toEqual([119]);
    expect(decodeOptions(raw([[119, '01 61 c004 0162 00']])).invalid).toEqual([119]);
    expect(decodeOptions(raw([[119, '05 6162']])).invalid).toEqual([119]);
  });

  it('reads RFC 3442’s classless routes, host bits of the destination cleared', () => {
    const b =
      '00 c0000201  08 0a 0a000001  10 0a11 0a000001  18 0a1b81 0a000001  19 0ae50080 00000000  20 0ac67a2f 0a000002';
    expect(decodeOptions(raw([[121, b]])).options.classlessRoutes).toEqual([
      { destination: '0.0.0.0/0', gateway: '192.0.2.1' },
      { destination: '10.0.0.0/8', gateway: '10.0.0.1' },
      { destination: '10.17.0.0/16', gateway: '10.0.0.1' },
      { destination: '10.27.129.0/24', gateway: '10.0.0.1' },
      { destination: '10.229.0.128/25', gateway: '0.0.0.0' },
      { destination: '10.198.122.47/32', gateway: '10.0.0.2' },
    ]);
    expect(decodeOptions(raw([[121, '09 0aff 0a000001']])).options.classlessRoutes).toEqual([
      { destination: '10.128.0.0/9', gateway: '10.0.0.1' },
    ]);
    expect(
      encodeOptions({ classlessRoutes: [{ destination: '10.229.0.200/25', gateway: '0.0.0.0' }] }),
    ).toEqual(raw([[121, '19 0ae50080 00000000']]));
    expect(decodeOptions(raw([[121, '21 0a000000 0a000001']])).invalid).toEqual([121]);
    expect(decodeOptions(raw([[121, '18 0a00 0a000001']])).invalid).toEqual([121]);
  });

  it('leaves out a malformed option and names it, keeping the others', () => {
    const { options, invalid } = decodeOptions(
      raw([
        [1, 'ffff'],
        [3, 'c00002'],
        [26, '05dc'],
        [51, '0e10'],
      ]),
    );
    expect(options).toEqual({ mtu: 1500 });
    expect(invalid.sort()).toEqual([1, 3, 51]);
  });

  it('round-trips typed options, message type first', () => {
    const o: Options = {
      messageType: 3,
      requestedIp: '192.0.2.10',
      serverId: '192.0.2.1',
      parameterList: [1, 3, 6, 121],
      hostname: 'n',
      clientId: hex('01 020000000001'),
      maxMessageSize: 1500,
    };
    const enc = encodeOptions(o);
    expect([...enc.keys()][0]).toBe(53);
    expect(decodeOptions(enc).options).toEqual(o);
    expect(() => encodeOptions({ serverId: '300.1.1.1' })).toThrow(/not an IPv4 address/);
  });
});
