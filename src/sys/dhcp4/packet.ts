// IPv4 and UDP headers around a DHCP message, for a packet socket that sees the IP layer (SOCK_DGRAM):
// built with both checksums on send, checked on receive, since no kernel UDP socket does it for us.
import { bytesToIp, ipToBytes } from './options.js';

export const CLIENT_PORT = 68;
export const SERVER_PORT = 67;
const IP_HEADER = 20;
const UDP_HEADER = 8;
const PROTO_UDP = 17;
// DSCP CS6, network control, as other DHCP clients mark their packets
const TOS_CS6 = 0xc0;

export interface Datagram {
  readonly src: string;
  readonly dst: string;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly payload: Buffer;
}

/** PacketError names why an IP packet was not a UDP datagram to take. */
export class PacketError extends Error {
  override readonly name = 'PacketError';
}

/** checksum is the Internet checksum (RFC 1071) of `b`, starting from a partial sum. */
export function checksum(b: Uint8Array, sum = 0): number {
  for (let i = 0; i + 1 < b.length; i += 2) sum += (b[i]! << 8) | b[i + 1]!;
  if (b.length & 1) sum += b[b.length - 1]! << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

const pseudoSum = (src: Buffer, dst: Buffer, udpLength: number): number =>
  ((src[0]! << 8) | src[1]!) +
  ((src[2]! << 8) | src[3]!) +
  ((dst[0]! << 8) | dst[1]!) +
  ((dst[2]! << 8) | dst[3]!) +
  PROTO_UDP +
  udpLength;

/** encodeDatagram wraps `payload` in an IPv4 header and a UDP header, both checksummed. */
export function encodeDatagram(d: Datagram): Buffer {
  const udpLength = UDP_HEADER + d.payload.length;
  const b = Buffer.alloc(IP_HEADER + udpLength);
  const src = ipToBytes(d.src);
  const dst = ipToBytes(d.dst);
  b[0] = 0x45;
  b[1] = TOS_CS6;
  b.writeUInt16BE(b.length, 2);
  b[8] = 64; // TTL
  b[9] = PROTO_UDP;
  src.copy(b, 12);
  dst.copy(b, 16);
  b.writeUInt16BE(checksum(b.subarray(0, IP_HEADER)), 10);
  b.writeUInt16BE(d.srcPort, 20);
  b.writeUInt16BE(d.dstPort, 22);
  b.writeUInt16BE(udpLength, 24);
  d.payload.copy(b, 28);
  // a computed 0 is sent as 0xffff: 0 on the wire means "no checksum" (RFC 768)
  const sum = checksum(b.subarray(IP_HEADER), pseudoSum(src, dst, udpLength));
  b.writeUInt16BE(sum === 0 ? 0xffff : sum, 26);
  return b;
}

/**
 * decodeDatagram checks an IPv4 packet as a UDP datagram: header checksum, lengths, no fragment, and
 * the UDP checksum when one was sent, unless `checksumPending` (the sender's NIC or a virtual link was
 * left to fill it in: the kernel says so through PACKET_AUXDATA).
 */
export function decodeDatagram(packet: Uint8Array, checksumPending = false): Datagram {
  const b = Buffer.from(packet.buffer, packet.byteOffset, packet.length);
  if (b.length < IP_HEADER) throw new PacketError(`IP packet of ${b.length} bytes`);
  if (b[0]! >> 4 !== 4) throw new PacketError(`IP version ${b[0]! >> 4}`);
  const ihl = (b[0]! & 0xf) * 4;
  const total = b.readUInt16BE(2);
  // link layers pad short frames, so the buffer may be longer than the packet, never shorter
  if (ihl < IP_HEADER || total < ihl + UDP_HEADER || total > b.length)
    throw new PacketError(`IP lengths ${ihl}/${total} in ${b.length} bytes`);
  if (checksum(b.subarray(0, ihl)) !== 0) throw new PacketError('bad IP header checksum');
  if (b.readUInt16BE(6) & 0x3fff) throw new PacketError('IP fragment');
  if (b[9] !== PROTO_UDP) throw new PacketError(`IP protocol ${b[9]}`);
  const udp = b.subarray(ihl, total);
  const udpLength = udp.readUInt16BE(4);
  if (udpLength < UDP_HEADER || udpLength > udp.length) throw new PacketError(`UDP length ${udpLength}`);
  const src = b.subarray(12, 16);
  const dst = b.subarray(16, 20);
  if (!checksumPending && udp.readUInt16BE(6) !== 0) {
    if (checksum(udp.subarray(0, udpLength), pseudoSum(src, dst, udpLength)) !== 0)
      throw new PacketError('bad UDP checksum');
  }
  return {
    src: bytesToIp(src),
    dst: bytesToIp(dst),
    srcPort: udp.readUInt16BE(0),
    dstPort: udp.readUInt16BE(2),
    payload: Buffer.from(udp.subarray(UDP_HEADER, udpLength)),
  };
}
