// The DHCPv4 message (RFC 2131 §2): the fixed BOOTP header, the magic cookie, then options, which may
// spill into the sname and file fields (option 52, overload) and may repeat to carry long values (RFC 3396).
import { bytesToIp, ipToBytes, Opt, type RawOptions } from './options.js';

export const BOOTREQUEST = 1;
export const BOOTREPLY = 2;
/** flags bit asking the server to broadcast its reply */
export const FLAG_BROADCAST = 0x8000;
const HTYPE_ETHER = 1;
const COOKIE = 0x63825363;
const HEADER = 236;
// RFC 1542 §2.1: relays may drop BOOTP messages shorter than this
const MIN_MESSAGE = 300;
const PAD = 0;
const END = 255;

export interface Message {
  op: number;
  htype: number;
  hops: number;
  xid: number;
  secs: number;
  flags: number;
  ciaddr: string;
  yiaddr: string;
  siaddr: string;
  giaddr: string;
  /** client hardware address, hlen bytes */
  chaddr: Uint8Array;
  sname: string;
  file: string;
  options: RawOptions;
}

/** MessageError is a datagram that is not a well-formed DHCP message. */
export class MessageError extends Error {
  override readonly name = 'MessageError';
}

/** newMessage fills the defaults of a client request. */
export function newMessage(fields: Partial<Message> & Pick<Message, 'xid' | 'chaddr'>): Message {
  return {
    op: BOOTREQUEST,
    htype: HTYPE_ETHER,
    hops: 0,
    secs: 0,
    flags: 0,
    ciaddr: '0.0.0.0',
    yiaddr: '0.0.0.0',
    siaddr: '0.0.0.0',
    giaddr: '0.0.0.0',
    sname: '',
    file: '',
    options: new Map(),
    ...fields,
  };
}

/** encodeMessage writes a message; long options are split into instances of at most 255 bytes. */
export function encodeMessage(m: Message): Buffer {
  if (m.chaddr.length > 16) throw new MessageError(`hardware address of ${m.chaddr.length} bytes`);
  const opts: number[] = [];
  for (const [code, value] of m.options) {
    if (code === PAD || code === END) continue;
    let at = 0;
    do {
      const part = value.subarray(at, at + 255);
      opts.push(code, part.length, ...part);
      at += 255;
    } while (at < value.length);
  }
  opts.push(END);
  const b = Buffer.alloc(Math.max(MIN_MESSAGE, HEADER + 4 + opts.length));
  b[0] = m.op;
  b[1] = m.htype;
  b[2] = m.chaddr.length;
  b[3] = m.hops;
  b.writeUInt32BE(m.xid >>> 0, 4);
  b.writeUInt16BE(Math.min(m.secs, 0xffff), 8);
  b.writeUInt16BE(m.flags, 10);
  ipToBytes(m.ciaddr).copy(b, 12);
  ipToBytes(m.yiaddr).copy(b, 16);
  ipToBytes(m.siaddr).copy(b, 20);
  ipToBytes(m.giaddr).copy(b, 24);
  b.set(m.chaddr, 28);
  b.write(m.sname, 44, 63, 'latin1');
  b.write(m.file, 108, 127, 'latin1');
  b.writeUInt32BE(COOKIE, HEADER);
  b.set(opts, HEADER + 4);
  return b;
}

/** decodeMessage reads a message; anything malformed throws MessageError. */
export function decodeMessage(b: Uint8Array): Message {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  if (buf.length < HEADER + 4) throw new MessageError(`message of ${buf.length} bytes`);
  if (buf.readUInt32BE(HEADER) !== COOKIE) throw new MessageError('no DHCP magic cookie');
  const hlen = buf[2]!;
  if (hlen > 16) throw new MessageError(`hardware address length ${hlen}`);
  const options: RawOptions = new Map();
  parseOptions(buf.subarray(HEADER + 4), options, 'options');
  const overload = options.get(Opt.OptionOverload)?.[0] ?? 0;
  options.delete(Opt.OptionOverload);
  // RFC 2131 §4.1: the options field first, then file, then sname
  if (overload & 1) parseOptions(buf.subarray(108, 236), options, 'file');
  if (overload & 2) parseOptions(buf.subarray(44, 108), options, 'sname');
  return {
    op: buf[0]!,
    htype: buf[1]!,
    hops: buf[3]!,
    xid: buf.readUInt32BE(4),
    secs: buf.readUInt16BE(8),
    flags: buf.readUInt16BE(10),
    ciaddr: bytesToIp(buf, 12),
    yiaddr: bytesToIp(buf, 16),
    siaddr: bytesToIp(buf, 20),
    giaddr: bytesToIp(buf, 24),
    chaddr: Buffer.from(buf.subarray(28, 28 + hlen)),
    sname: overload & 2 ? '' : cString(buf.subarray(44, 108)),
    file: overload & 1 ? '' : cString(buf.subarray(108, 236)),
    options,
  };
}

/**
 * parseOptions appends one field's options to `into`; a repeated code is concatenated (RFC 3396). A field
 * filled to its last byte without an end option is accepted, as other clients do.
 */
function parseOptions(b: Buffer, into: RawOptions, field: string): void {
  let at = 0;
  while (at < b.length) {
    const code = b[at]!;
    if (code === PAD) {
      at++;
      continue;
    }
    if (code === END) return;
    if (at + 1 >= b.length || at + 2 + b[at + 1]! > b.length)
      throw new MessageError(`option ${code} runs past the ${field} field`);
    const value = b.subarray(at + 2, at + 2 + b[at + 1]!);
    const prev = into.get(code);
    into.set(code, prev ? Buffer.concat([prev, value]) : Buffer.from(value));
    at += 2 + value.length;
  }
}

const cString = (b: Buffer): string => {
  const nul = b.indexOf(0);
  return b.toString('latin1', 0, nul < 0 ? b.length : nul);
};
