// The DHCP client's link: an AF_PACKET socket (SOCK_DGRAM, IPv4) bound to one interface, so messages flow
// before the interface has an address. A classic BPF filter keeps only UDP to port 68 in the kernel, and
// PACKET_AUXDATA says when a virtual link left a UDP checksum unfilled. Readiness comes from the FdPoller.
import { endianness } from 'node:os';
import { check, SysError } from '../errno.js';
import { ioctlBuffer } from '../ioctl-loop.js';
import { koffi, lastErrno, libc } from '../libc.js';
import { poller, type Watch } from '../poller.js';
import {
  AF_INET,
  AF_PACKET,
  bind,
  closeFd,
  SO_ATTACH_FILTER,
  SOCK_DGRAM,
  SOL_SOCKET,
  sendto,
  setsockoptInt,
  socket,
} from '../socket.js';
import { decodeMessage, encodeMessage, type Message } from './message.js';
import { CLIENT_PORT, decodeDatagram, encodeDatagram, SERVER_PORT } from './packet.js';

const ETH_P_IP = 0x0800;
const SOL_PACKET = 263;
const PACKET_AUXDATA = 8;
const PACKET_OUTGOING = 4;
const TP_STATUS_CSUMNOTREADY = 1 << 3;
const MSG_DONTWAIT = 0x40;
const MSG_TRUNC = 0x20;
const EAGAIN = 11;
const EINTR = 4;
const BROADCAST_MAC = Buffer.alloc(6, 0xff);
const LE = endianness() === 'LE';

/** LinkInfo is what the client needs of its interface. */
export interface LinkInfo {
  readonly name: string;
  readonly index: number;
  readonly mac: Buffer;
}

const SIOCGIFHWADDR = 0x8927;
const ARPHRD_ETHER = 1;
const IFREQ_SIZE = 40;
const if_nametoindex = libc.func('unsigned int if_nametoindex(const char *name)');

/**
 * linkInfo reads an interface's index and Ethernet address. It asks the kernel (if_nametoindex(3),
 * SIOCGIFHWADDR) rather than /sys/class/net, which shows the namespace sysfs was mounted in, not the
 * caller's: in a container node or a test's namespace they differ.
 */
export function linkInfo(name: string): LinkInfo {
  if (!/^[^/\s]{1,15}$/.test(name)) throw new Error(`bad link name ${name}`);
  const index = if_nametoindex(name);
  if (index === 0) throw new SysError('if_nametoindex', lastErrno(), [name]);
  const fd = socket(AF_INET, SOCK_DGRAM, 0);
  try {
    const req = Buffer.alloc(IFREQ_SIZE); // struct ifreq: the name, then a sockaddr at 16
    req.write(name, 0, 15, 'utf8');
    ioctlBuffer(fd, SIOCGIFHWADDR, req);
    const family = LE ? req.readUInt16LE(16) : req.readUInt16BE(16);
    if (family !== ARPHRD_ETHER) throw new Error(`link ${name} is not Ethernet (ARPHRD ${family})`);
    return { name, index, mac: Buffer.from(req.subarray(18, 24)) };
  } finally {
    closeFd(fd);
  }
}

/** Destination of a message: everyone on the link, or one server by its IP and the MAC it replied from. */
export type Destination = { readonly broadcast: true } | { readonly ip: string; readonly mac: Uint8Array };

/** Received is a DHCP message off the wire, with the link-layer address it came from. */
export interface Received {
  readonly message: Message;
  readonly srcIp: string;
  readonly srcMac: Buffer;
}

/** DhcpSocket is the open transport; the state machine sees only this. */
export interface DhcpSocket {
  /** send sends from `srcIp` (0.0.0.0 until bound); a full queue is false, the retransmission covers it */
  send(m: Message, to: Destination, srcIp: string): boolean;
  close(): void;
}

export interface SocketHandlers {
  onMessage(r: Received): void;
  /** a datagram that was dropped (bad checksum, not DHCP), or a receive error; the socket stays open */
  onDrop?(why: string): void;
}

// classic BPF on the IP header: UDP, not a fragment, destination port 68
const FILTER: readonly [code: number, jt: number, jf: number, k: number][] = [
  [0x30, 0, 0, 9], // ldb [9]: protocol
  [0x15, 0, 6, 17], // jeq UDP, else drop
  [0x28, 0, 0, 6], // ldh [6]: flags and fragment offset
  [0x45, 4, 0, 0x1fff], // jset offset, drop
  [0xb1, 0, 0, 0], // ldxb 4*([0]&0xf): header length
  [0x48, 0, 0, 2], // ldh [x+2]: UDP destination port
  [0x15, 0, 1, CLIENT_PORT], // jeq 68, else drop
  [0x06, 0, 0, 0xffffffff], // accept the whole packet
  [0x06, 0, 0, 0], // drop
];

const sockFprog = koffi.struct('dhcp4_sock_fprog', { len: 'uint16_t', filter: 'void *' });
const iovec = koffi.struct('dhcp4_iovec', { base: 'void *', len: 'size_t' });
const msghdr = koffi.struct('dhcp4_msghdr', {
  name: 'void *',
  namelen: 'uint32_t',
  iov: 'void *',
  iovlen: 'size_t',
  control: 'void *',
  controllen: 'size_t',
  flags: 'int',
});
const cmsghdr = koffi.struct('dhcp4_cmsghdr', { len: 'size_t', level: 'int', type: 'int' });
const setsockoptFprog = libc.func(
  'int setsockopt(int fd, int level, int name, const dhcp4_sock_fprog *val, uint32_t len)',
);
const recvmsg_ = libc.func('long recvmsg(int fd, void *msg, int flags)');

/** sockaddrLl encodes a struct sockaddr_ll (fixed-width fields: one layout on every ABI). */
function sockaddrLl(ifindex: number, mac?: Uint8Array): Buffer {
  const b = Buffer.alloc(20);
  if (LE) {
    b.writeUInt16LE(AF_PACKET, 0);
    b.writeInt32LE(ifindex, 4);
  } else {
    b.writeUInt16BE(AF_PACKET, 0);
    b.writeInt32BE(ifindex, 4);
  }
  b.writeUInt16BE(ETH_P_IP, 2); // network order, as sll_protocol always is
  if (mac) {
    b[11] = mac.length;
    b.set(mac, 12);
  }
  return b;
}

function attachFilter(fd: number): void {
  const size = 8 * FILTER.length;
  const mem = koffi.alloc('uint8_t', size);
  try {
    const v = new DataView(koffi.view(mem, size));
    FILTER.forEach(([code, jt, jf, k], i) => {
      v.setUint16(i * 8, code, LE);
      v.setUint8(i * 8 + 2, jt);
      v.setUint8(i * 8 + 3, jf);
      v.setUint32(i * 8 + 4, k, LE);
    });
    const prog = { len: FILTER.length, filter: mem };
    check(setsockoptFprog(fd, SOL_SOCKET, SO_ATTACH_FILTER, prog, koffi.sizeof(sockFprog)), 'setsockopt', fd);
  } finally {
    koffi.free(mem);
  }
}

/**
 * Receiver owns native memory for recvmsg(2): the header, one iovec, the sender's sockaddr_ll and the
 * control buffer stay put while the kernel writes them, which a JS Buffer moved by the GC would not.
 */
class Receiver {
  static readonly DATA = 16384;
  static readonly CONTROL = 128;
  readonly #mem: unknown;
  readonly #view: Buffer;
  readonly #at: { iov: number; name: number; control: number; data: number };

  constructor() {
    const hdr = koffi.sizeof(msghdr);
    const at = { iov: hdr, name: hdr + 16, control: hdr + 16 + 32, data: hdr + 16 + 32 + Receiver.CONTROL };
    this.#at = at;
    const size = at.data + Receiver.DATA;
    this.#mem = koffi.alloc('uint8_t', size);
    this.#view = Buffer.from(koffi.view(this.#mem, size));
  }

  #ptr(offset: number): bigint {
    return koffi.address(this.#mem) + BigInt(offset);
  }

  /** recv takes one packet; nothing queued is null. */
  recv(fd: number): { data: Buffer; from: Buffer; csumPending: boolean; truncated: boolean } | null {
    const at = this.#at;
    koffi.encode(this.#mem, at.iov, iovec, { base: this.#ptr(at.data), len: Receiver.DATA });
    koffi.encode(this.#mem, 0, msghdr, {
      name: this.#ptr(at.name),
      namelen: 32,
      iov: this.#ptr(at.iov),
      iovlen: 1,
      control: this.#ptr(at.control),
      controllen: Receiver.CONTROL,
      flags: 0,
    });
    let n: number;
    for (;;) {
      n = Number(recvmsg_(fd, this.#mem, MSG_DONTWAIT));
      if (n >= 0) break;
      const errno = lastErrno();
      if (errno === EINTR) continue;
      if (errno === EAGAIN) return null;
      throw new SysError('recvmsg', errno, [fd]);
    }
    const hdr = koffi.decode(this.#mem, 0, msghdr) as { controllen: number | bigint; flags: number };
    return {
      data: Buffer.from(this.#view.subarray(at.data, at.data + Math.min(n, Receiver.DATA))),
      from: Buffer.from(this.#view.subarray(at.name, at.name + 20)),
      csumPending: (this.#auxStatus(Number(hdr.controllen)) & TP_STATUS_CSUMNOTREADY) !== 0,
      truncated: (hdr.flags & MSG_TRUNC) !== 0,
    };
  }

  /** auxStatus is tp_status of the PACKET_AUXDATA control message, 0 without one. */
  #auxStatus(controllen: number): number {
    const headerSize = koffi.sizeof(cmsghdr);
    let off = 0;
    while (off + headerSize <= controllen) {
      const c = koffi.decode(this.#mem, this.#at.control + off, cmsghdr) as {
        len: number | bigint;
        level: number;
        type: number;
      };
      const len = Number(c.len);
      if (len < headerSize) break;
      if (c.level === SOL_PACKET && c.type === PACKET_AUXDATA) {
        const at = this.#at.control + off + headerSize;
        return LE ? this.#view.readUInt32LE(at) : this.#view.readUInt32BE(at);
      }
      off += (len + 7) & ~7;
    }
    return 0;
  }

  free(): void {
    koffi.free(this.#mem);
  }
}

/**
 * openDhcpSocket opens the transport on `link`. The socket starts with protocol 0, which receives nothing,
 * and is bound to IPv4 only once the filter is in place, so no other link's or port's packet slips in.
 */
export function openDhcpSocket(link: LinkInfo, handlers: SocketHandlers): DhcpSocket {
  const fd = socket(AF_PACKET, SOCK_DGRAM, 0);
  let rx: Receiver | undefined;
  let watch: Watch | undefined;
  let open = true;
  try {
    attachFilter(fd);
    setsockoptInt(fd, SOL_PACKET, PACKET_AUXDATA, 1);
    bind(fd, sockaddrLl(link.index));
    rx = new Receiver();
    const receiver = rx;
    watch = poller().watch(fd, () => {
      // a handler may close the socket: nothing is read from it after that
      while (open) {
        let p: ReturnType<Receiver['recv']>;
        try {
          p = receiver.recv(fd);
        } catch (e) {
          // ENETDOWN while the link is down, for one: the socket stays, the retransmission retries
          handlers.onDrop?.(String(e));
          return;
        }
        if (!p) return;
        const got = accept(p, link);
        if (typeof got === 'string') handlers.onDrop?.(got);
        else if (got) handlers.onMessage(got);
      }
    });
  } catch (e) {
    rx?.free();
    closeFd(fd);
    throw e;
  }
  const w = watch;
  const r = rx;
  return {
    send(m, to, srcIp) {
      const broadcast = 'broadcast' in to;
      const packet = encodeDatagram({
        src: srcIp,
        dst: broadcast ? '255.255.255.255' : to.ip,
        srcPort: CLIENT_PORT,
        dstPort: SERVER_PORT,
        payload: encodeMessage(m),
      });
      return sendto(fd, packet, sockaddrLl(link.index, broadcast ? BROADCAST_MAC : to.mac));
    },
    close() {
      if (!open) return;
      open = false;
      w.close();
      closeFd(fd);
      r.free();
    },
  };
}

/** accept turns a packet into a received message, a reason to drop it, or null to ignore it quietly. */
function accept(p: NonNullable<ReturnType<Receiver['recv']>>, link: LinkInfo): Received | string | null {
  // sockaddr_ll: pkttype at 10, halen at 11, address at 12
  if (p.from[10] === PACKET_OUTGOING) return null;
  if (p.truncated) return `packet longer than ${Receiver.DATA} bytes`;
  try {
    const d = decodeDatagram(p.data, p.csumPending);
    if (d.dstPort !== CLIENT_PORT || d.srcPort !== SERVER_PORT)
      return `UDP from port ${d.srcPort} to ${d.dstPort}`;
    const message = decodeMessage(d.payload);
    if (!Buffer.from(message.chaddr).equals(link.mac)) return null; // another client's reply
    return { message, srcIp: d.src, srcMac: Buffer.from(p.from.subarray(12, 12 + Math.min(p.from[11]!, 8))) };
  } catch (e) {
    return (e as Error).message;
  }
}
