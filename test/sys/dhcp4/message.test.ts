import { describe, expect, it } from 'vitest';
import {
  decodeMessage,
  encodeMessage,
  FLAG_BROADCAST,
  MessageError,
  newMessage,
} from '../../../src/sys/dhcp4/message.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const mac = hex('02 00 00 00 00 01');

/** reply builds a BOOTREPLY by hand: header bytes, cookie, then `opts`, with sname/file filled as given. */
function reply(opts: Buffer, fields: { sname?: Buffer; file?: Buffer } = {}): Buffer {
  const b = Buffer.alloc(240);
  b.set([2, 1, 6, 0], 0);
  b.writeUInt32BE(0xdeadbeef, 4);
  b.writeUInt16BE(3, 8);
  b.set([192, 0, 2, 10], 16); // yiaddr
  b.set([192, 0, 2, 1], 20); // siaddr
  b.set(mac, 28);
  if (fields.sname) b.set(fields.sname, 44);
  if (fields.file) b.set(fields.file, 108);
  b.writeUInt32BE(0x63825363, 236);
  return Buffer.concat([b, opts]);
}

describe('DHCPv4 message codec', () => {
  it('writes the BOOTP header, the cookie, the options and pads to 300 bytes', () => {
    const m = newMessage({ xid: 0x01020304, chaddr: mac, secs: 7, flags: FLAG_BROADCAST });
    m.options.set(53, Buffer.from([1]));
    m.options.set(55, Buffer.from([1, 3, 6]));
    const b = encodeMessage(m);
    expect(b.length).toBe(300);
    expect(b.subarray(0, 12)).toEqual(hex('01 01 06 00 01020304 0007 8000'));
    expect(b.subarray(12, 28)).toEqual(Buffer.alloc(16)); // ciaddr yiaddr siaddr giaddr
    expect(b.subarray(28, 44)).toEqual(Buffer.concat([mac, Buffer.alloc(10)]));
    expect(b.subarray(236, 240)).toEqual(hex('63825363'));
    expect(b.subarray(240, 249)).toEqual(hex('3501 01 3703 010306 ff'));
    expect(b.subarray(249)).toEqual(Buffer.alloc(51));
  });

  it('reads a reply, skipping pads and stopping at the end option', () => {
    const m = decodeMessage(reply(hex('00 00 3501 02 00 3604 c0000201 ff 0c02 6e6f')));
    expect(m).toMatchObject({ op: 2, xid: 0xdeadbeef, secs: 3, yiaddr: '192.0.2.10', siaddr: '192.0.2.1' });
    expect(Buffer.from(m.chaddr)).toEqual(mac);
    expect([...m.options.keys()]).toEqual([53, 54]); // option 12 comes after the end: not read
    expect(m.options.get(54)).toEqual(hex('c0000201'));
  });

  it('reads options overloaded into file, then sname (option 52), and joins repeated ones', () => {
    const file = hex('0f03 6578 61 ff'); // domain 'exa'
    const sname = hex('0f02 6d70 0c01 68 ff'); // domain continued 'mp', hostname 'h'
    const m = decodeMessage(reply(hex('3501 05 3401 03 ff'), { sname, file }));
    expect(m.options.get(15)?.toString()).toBe('examp');
    expect(m.options.get(12)?.toString()).toBe('h');
    expect(m.options.has(52)).toBe(false);
    expect(m.sname).toBe('');
    expect(m.file).toBe('');
  });

  it('keeps sname and file as strings when not overloaded', () => {
    const m = decodeMessage(
      reply(hex('3501 02 ff'), { sname: Buffer.from('srv\0'), file: Buffer.from('boot') }),
    );
    expect(m.sname).toBe('srv');
    expect(m.file).toBe('boot');
  });

  it('splits an option longer than 255 bytes into instances and reads it back whole', () => {
    const m = newMessage({ xid: 1, chaddr: mac });
    const long = Buffer.alloc(300, 7);
    m.options.set(121, long);
    const b = encodeMessage(m);
    expect(b.subarray(240, 242)).toEqual(hex('79ff'));
    expect(b.subarray(240 + 257, 240 + 259)).toEqual(hex('792d'));
    expect(decodeMessage(b).options.get(121)).toEqual(long);
  });

  it('round-trips every header field', () => {
    const m = newMessage({
      xid: 0xffffffff,
      chaddr: mac,
      ciaddr: '10.0.0.1',
      yiaddr: '10.0.0.2',
      siaddr: '10.0.0.3',
      giaddr: '10.0.0.4',
      hops: 2,
      secs: 65535,
      sname: 'server',
      file: 'pxelinux.0',
    });
    m.options.set(53, Buffer.from([3]));
    expect(decodeMessage(encodeMessage(m))).toEqual(m);
  });

  it('refuses what is not a DHCP message', () => {
    expect(() => decodeMessage(Buffer.alloc(100))).toThrow(MessageError);
    const noCookie = reply(hex('ff'));
    noCookie.writeUInt32BE(0, 236);
    expect(() => decodeMessage(noCookie)).toThrow(/cookie/);
    expect(() => decodeMessage(reply(hex('3504 0102')))).toThrow(/option 53 runs past/);
    const longHw = reply(hex('ff'));
    longHw[2] = 17;
    expect(() => decodeMessage(longHw)).toThrow(/hardware address length/);
  });
});
