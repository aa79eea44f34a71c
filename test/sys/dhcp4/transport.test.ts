import { describe, expect, it } from 'vitest';
import { newMessage } from '../../../src/sys/dhcp4/message.js';
import { encodeOptions, MessageType } from '../../../src/sys/dhcp4/options.js';
import { linkInfo, openDhcpSocket, type Received } from '../../../src/sys/dhcp4/transport.js';
import { poller } from '../../../src/sys/poller.js';
import { enterNetns, ip, peerNetns, vethTo } from '../netns.js';
import { startDnsmasq } from './dnsmasq.js';

describe('DHCPv4 packet socket', () => {
  enterNetns();
  const peer = peerNetns('dhcp');
  vethTo(peer, 'dt0', 'dt1');
  peer.run('ip', 'addr', 'add', '192.0.2.1/24', 'dev', 'dt1');

  it('reads the link’s index and hardware address from sysfs', () => {
    const [l] = JSON.parse(ip('-j', 'link', 'show', 'dt0')) as { ifindex: number; address: string }[];
    const info = linkInfo('dt0');
    expect(info.index).toBe(l!.ifindex);
    expect(info.mac.toString('hex').match(/../g)!.join(':')).toBe(l!.address);
    expect(() => linkInfo('../dt0')).toThrow(/bad link name/);
  });

  it('broadcasts a DISCOVER from an address-less link and takes the OFFER, with the server’s MAC', async () => {
    const server = await startDnsmasq(peer, 'dt1', ['--dhcp-range=192.0.2.10,192.0.2.20,2m', '--no-ping']);
    const link = linkInfo('dt0');
    const watching = poller().watching;
    const drops: string[] = [];
    let sock: ReturnType<typeof openDhcpSocket> | undefined;
    try {
      const got = new Promise<Received>((resolve) => {
        sock = openDhcpSocket(link, { onMessage: resolve, onDrop: (w) => drops.push(w) });
      });
      const m = newMessage({ xid: 0x4b45454c, chaddr: link.mac, flags: 0x8000 });
      m.options = encodeOptions({ messageType: MessageType.Discover, parameterList: [1, 3] });
      expect(sock!.send(m, { broadcast: true }, '0.0.0.0')).toBe(true);
      const r = await got;
      expect(r.message.xid).toBe(0x4b45454c);
      expect(r.message.options.get(53)).toEqual(Buffer.from([MessageType.Offer]));
      expect(r.message.yiaddr).toMatch(/^192\.0\.2\.(1\d|20)$/);
      expect(r.srcIp).toBe('192.0.2.1');
      expect(r.srcMac.toString('hex')).toBe(
        peer.run('cat', '/sys/class/net/dt1/address').trim().replaceAll(':', ''),
      );
      await server.waitFor(new RegExp(`${0x4b45454c} DHCPDISCOVER\\(dt1\\)`));
      expect(drops).toEqual([]);
    } finally {
      sock?.close();
      await server.stop();
    }
    expect(poller().watching).toBe(watching);
  });

  it('filters in the kernel: UDP to another port never reaches the socket', async () => {
    ip('addr', 'add', '192.0.2.50/24', 'dev', 'dt0');
    const drops: string[] = [];
    let resolveDrop: () => void = () => {};
    const dropped = new Promise<void>((r) => {
      resolveDrop = r;
    });
    const sock = openDhcpSocket(linkInfo('dt0'), {
      onMessage: () => {},
      onDrop: (w) => {
        drops.push(w);
        resolveDrop();
      },
    });
    try {
      // port 9999 first: on one link order holds, so without the filter its drop would come first
      peer.run('bash', '-c', 'echo x > /dev/udp/192.0.2.50/9999; echo y > /dev/udp/192.0.2.50/68');
      await dropped;
      expect(drops).toHaveLength(1);
      expect(drops[0]).toMatch(/^UDP from port \d+ to 68$/);
    } finally {
      sock.close();
      ip('addr', 'del', '192.0.2.50/24', 'dev', 'dt0');
    }
  });
});
