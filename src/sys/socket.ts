// Sockets Node's net and dgram cannot make (netlink, AF_PACKET, device-bound UDP): socket(2), bind(2),
// sendto(2), recvfrom(2), setsockopt(2) on raw descriptors. They are made non-blocking and close-on-exec;
// readiness comes from the FdPoller (poller.ts), so nothing here ever blocks the event loop.
import { check, SysError } from './errno.js';
import { lastErrno, libc } from './libc.js';

export const AF_INET = 2;
export const AF_INET6 = 10;
export const AF_NETLINK = 16;
export const AF_PACKET = 17;

export const SOCK_STREAM = 1;
export const SOCK_DGRAM = 2;
export const SOCK_RAW = 3;
export const SOCK_NONBLOCK = 0o4000;
export const SOCK_CLOEXEC = 0o2000000;

export const SOL_SOCKET = 1;
export const SO_REUSEADDR = 2;
export const SO_BROADCAST = 6;
export const SO_SNDBUF = 7;
export const SO_RCVBUF = 8;
export const SO_BINDTODEVICE = 25;
export const SO_ATTACH_FILTER = 26;
export const SO_RCVBUFFORCE = 33;

export const MSG_DONTWAIT = 0x40;
export const MSG_TRUNC = 0x20;

const EAGAIN = 11;
const EINTR = 4;

const socket_ = libc.func('int socket(int domain, int type, int protocol)');
const bind_ = libc.func('int bind(int fd, const uint8_t *addr, uint32_t len)');
const sendto_ = libc.func(
  'long sendto(int fd, const uint8_t *buf, size_t len, int flags, const uint8_t *addr, uint32_t alen)',
);
const recvfrom_ = libc.func(
  'long recvfrom(int fd, _Out_ uint8_t *buf, size_t len, int flags, _Out_ uint8_t *addr, _Inout_ uint32_t *alen)',
);
const setsockopt_ = libc.func(
  'int setsockopt(int fd, int level, int name, const uint8_t *val, uint32_t len)',
);
const getsockname_ = libc.func('int getsockname(int fd, _Out_ uint8_t *addr, _Inout_ uint32_t *alen)');
const close_ = libc.func('int close(int fd)');

/** socket opens a non-blocking, close-on-exec socket. */
export function socket(domain: number, type: number, protocol: number): number {
  return check(
    socket_(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol),
    'socket',
    domain,
    type,
    protocol,
  );
}

/** bind binds to an encoded sockaddr. */
export function bind(fd: number, addr: Uint8Array): void {
  check(bind_(fd, addr, addr.length), 'bind', fd);
}

/** setsockopt sets an option from raw bytes. */
export function setsockopt(fd: number, level: number, name: number, value: Uint8Array): void {
  check(setsockopt_(fd, level, name, value, value.length), 'setsockopt', fd, level, name);
}

/** setsockoptInt sets an int option. */
export function setsockoptInt(fd: number, level: number, name: number, value: number): void {
  const b = Buffer.alloc(4);
  b.writeInt32LE(value);
  setsockopt(fd, level, name, b);
}

/** getsockname reads the socket's own address (a netlink socket's port id, for one). */
export function getsockname(fd: number, size = 128): Buffer {
  const addr = Buffer.alloc(size);
  const len = [size];
  check(getsockname_(fd, addr, len), 'getsockname', fd);
  return addr.subarray(0, len[0]);
}

/**
 * sendto sends one datagram (to `addr` when given); a full send buffer is `false`, to be retried when the
 * caller decides, never a busy loop here.
 */
export function sendto(fd: number, data: Uint8Array, addr?: Uint8Array): boolean {
  for (;;) {
    const n = Number(sendto_(fd, data, data.length, MSG_DONTWAIT, addr ?? null, addr?.length ?? 0));
    if (n >= 0) return true;
    const errno = lastErrno();
    if (errno === EINTR) continue;
    if (errno === EAGAIN) return false;
    throw new SysError('sendto', errno, [fd]);
  }
}

export interface Datagram {
  readonly data: Buffer;
  /** the sender's sockaddr, as the kernel wrote it */
  readonly from: Buffer;
  /** the datagram was longer than the buffer and was cut (MSG_TRUNC) */
  readonly truncated: boolean;
}

/** recvfrom takes one datagram without waiting; nothing queued is null. */
export function recvfrom(fd: number, size = 65536): Datagram | null {
  const buf = Buffer.allocUnsafe(size);
  const from = Buffer.alloc(128);
  for (;;) {
    const alen = [from.length];
    // MSG_TRUNC makes the return the datagram's real length, so a cut one is told apart
    const n = Number(recvfrom_(fd, buf, size, MSG_DONTWAIT | MSG_TRUNC, from, alen));
    if (n >= 0)
      return {
        data: buf.subarray(0, Math.min(n, size)),
        from: from.subarray(0, Math.min(alen[0]!, from.length)),
        truncated: n > size,
      };
    const errno = lastErrno();
    if (errno === EINTR) continue;
    if (errno === EAGAIN) return null;
    throw new SysError('recvfrom', errno, [fd]);
  }
}

/** closeFd closes a descriptor this module opened (unwatch it from the poller first). */
export function closeFd(fd: number): void {
  check(close_(fd), 'close', fd);
}
