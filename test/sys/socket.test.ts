import { describe, expect, it } from 'vitest';
import { isSysError } from '../../src/sys/errno.js';
import { FdPoller } from '../../src/sys/poller.js';
import {
  AF_INET,
  bind,
  closeFd,
  getsockname,
  recvfrom,
  SO_RCVBUF,
  SOCK_DGRAM,
  SOL_SOCKET,
  sendto,
  setsockoptInt,
  socket,
} from '../../src/sys/socket.js';

/** sockaddrIn encodes 127.0.0.1:port. */
const loopback = (port: number) => {
  const b = Buffer.alloc(16);
  b.writeUInt16LE(AF_INET, 0);
  b.writeUInt16BE(port, 2);
  b.set([127, 0, 0, 1], 4);
  return b;
};

describe('raw sockets', () => {
  it('sends and receives a datagram on loopback without blocking, woken by the poller', async () => {
    const rx = socket(AF_INET, SOCK_DGRAM, 0);
    const tx = socket(AF_INET, SOCK_DGRAM, 0);
    const p = new FdPoller();
    try {
      setsockoptInt(rx, SOL_SOCKET, SO_RCVBUF, 1 << 16);
      bind(rx, loopback(0));
      const port = getsockname(rx).readUInt16BE(2);
      expect(port).toBeGreaterThan(0);
      expect(recvfrom(rx)).toBeNull(); // nothing queued: no wait
      const got = new Promise<Buffer>((resolve) => {
        const w = p.watch(rx, () => {
          const d = recvfrom(rx);
          if (!d) return;
          w.close();
          resolve(d.data);
        });
      });
      expect(sendto(tx, Buffer.from('hello'), loopback(port))).toBe(true);
      expect((await got).toString()).toBe('hello');
    } finally {
      p.close();
      closeFd(rx);
      closeFd(tx);
    }
  });

  it('tells a cut datagram apart, and names a failed call with its errno', () => {
    const rx = socket(AF_INET, SOCK_DGRAM, 0);
    try {
      bind(rx, loopback(0));
      const port = getsockname(rx).readUInt16BE(2);
      sendto(rx, Buffer.alloc(100, 1), loopback(port));
      const d = recvfrom(rx, 10);
      expect(d?.truncated).toBe(true);
      expect(d?.data.length).toBe(10);
      let err: unknown;
      try {
        bind(rx, loopback(port));
      } catch (e) {
        err = e;
      }
      expect(isSysError(err, 'EINVAL')).toBe(true);
      expect(String(err)).toMatch(/^SysError: bind\(\d+\): EINVAL/);
    } finally {
      closeFd(rx);
    }
  });
});
