// The namespace helpers themselves: a test process's own namespace is fresh, and a peer reaches it.
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { enterNetns, ip, peerNetns, vethTo } from './netns.js';

describe('network namespace helpers', () => {
  enterNetns();
  const peer = peerNetns();

  it('starts with only loopback, and a veth pair reaches the peer', async () => {
    expect(ip('-o', 'link', 'show').trim().split('\n')).toHaveLength(1);
    vethTo(peer, 'nt0', 'nt1');
    ip('addr', 'add', '192.0.2.1/24', 'dev', 'nt0');
    peer.run('ip', 'addr', 'add', '192.0.2.2/24', 'dev', 'nt1');
    const rx = createSocket('udp4');
    try {
      rx.bind(0, '192.0.2.1');
      await once(rx, 'listening');
      const msg = once(rx, 'message');
      peer.run('bash', '-c', `echo hello > /dev/udp/192.0.2.1/${rx.address().port}`);
      const [data, from] = (await msg) as [Buffer, { address: string }];
      expect(data.toString().trim()).toBe('hello');
      expect(from.address).toBe('192.0.2.2');
    } finally {
      rx.close();
    }
  });
});
