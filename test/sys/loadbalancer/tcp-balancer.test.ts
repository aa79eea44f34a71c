// The TCP load balancer against real TCP servers on free loopback ports: bytes both ways with half-close,
// a dead upstream left out, every upstream dead (connections closed at once, unhealthy), and recovery.
import { connect } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../../../scripts/lib/free-port.js';
import {
  isLoadBalancerError,
  startTCPBalancer,
  type TCPBalancer,
  type TCPBalancerOptions,
} from '../../../src/sys/loadbalancer/index.js';
import { exchange, first, named } from './servers.js';

const FAST: Omit<TCPBalancerOptions, 'port'> = {
  host: '127.0.0.1',
  dialTimeoutMs: 1_000,
  keepAlivePeriodMs: 30_000,
  tcpUserTimeoutMs: 30_000,
  healthCheckIntervalMs: 20,
  healthCheckTimeoutMs: 500,
};

async function balancer(upstreams: readonly number[], opts: Partial<TCPBalancerOptions> = {}) {
  const lb: TCPBalancer = await startTCPBalancer({ ...FAST, port: 0, ...opts });
  onTestFinished(() => lb.close());
  lb.setUpstreams(upstreams.map((port) => ({ host: '127.0.0.1', port })));
  return lb;
}

describe('startTCPBalancer', () => {
  it('proxies both ways, each half-close passed on', async () => {
    const a = await named('a');
    const lb = await balancer([a.port]);
    expect(lb.address).toBe(`127.0.0.1:${lb.port}`);
    expect(lb.healthy()).toBe(true); // a new upstream is usable before its first check, as upstream's
    expect(await exchange(lb.port, 'hello, world')).toBe('a\nhello, world');
    const big = 'x'.repeat(1 << 20);
    expect(await exchange(lb.port, big)).toBe(`a\n${big}`);
  });

  it('proxies many connections at once, spread over the upstreams of one tier', async () => {
    const a = await named('a');
    const b = await named('b');
    const lb = await balancer([a.port, b.port], { healthCheckIntervalMs: 60_000 });
    const got = await Promise.all(Array.from({ length: 40 }, (_, i) => exchange(lb.port, `#${i}`)));
    for (const [i, g] of got.entries()) expect(g).toMatch(new RegExp(`^[ab]\\n#${i}$`));
    // no check has run, so both are still in tier 1: round-robin
    expect(got.filter((g) => g.startsWith('a')).length).toBe(20);
  });

  it('sends traffic to the live upstream once the other is down', async () => {
    const a = await named('a');
    const b = await named('b');
    const lb = await balancer([a.port, b.port]);
    await a.close();
    // two failed checks (or dials) take a out; from then on every connection reaches b
    await expect
      .poll(async () => [await first(lb.port), await first(lb.port), await first(lb.port)], {
        timeout: 5_000,
      })
      .toEqual(['b', 'b', 'b']);
    expect(lb.upstreams().find((u) => u.address === `127.0.0.1:${a.port}`)!.score).toBeLessThan(0);
    expect(lb.healthy()).toBe(true);
  });

  it('closes connections at once with every upstream down, reports it, and recovers', async () => {
    const a = await named('a');
    const turns: boolean[] = [];
    const lb = await balancer([a.port], { onHealthChange: (h) => turns.push(h) });
    expect(turns).toEqual([true]);
    await a.close();
    await expect.poll(() => lb.healthy(), { timeout: 5_000 }).toBe(false);
    expect(turns).toEqual([true, false]);
    // accepted, then closed without a byte
    expect(await exchange(lb.port, 'anyone?')).toBe('');

    const back = await named('a-again', a.port);
    expect(back.port).toBe(a.port);
    await expect.poll(() => lb.healthy(), { timeout: 5_000 }).toBe(true);
    expect(turns).toEqual([true, false, true]);
    expect(await exchange(lb.port, 'hi')).toBe('a-again\nhi');
  });

  it('is unhealthy with no upstream, and follows a new list without losing health it knows', async () => {
    const a = await named('a');
    const b = await named('b');
    const lb = await balancer([]);
    expect(lb.healthy()).toBe(false);
    expect(await exchange(lb.port)).toBe('');
    lb.setUpstreams([{ host: '127.0.0.1', port: a.port }]);
    expect(await first(lb.port)).toBe('a');
    lb.setUpstreams([{ host: 'localhost', port: b.port }]);
    expect(lb.upstreams().map((u) => u.address)).toEqual([`localhost:${b.port}`]);
    expect(await first(lb.port)).toBe('b');
  });

  it('refuses a taken address with a listen error', async () => {
    const a = await named('a');
    const taken = startTCPBalancer({ ...FAST, port: a.port });
    await expect(taken).rejects.toSatisfy((e) => isLoadBalancerError(e, 'listen'));
    await expect(taken).rejects.toThrow(`127.0.0.1:${a.port}: listen EADDRINUSE`);
  });

  it('close ends the proxied connections and stops listening', async () => {
    const a = await named('a');
    const port = await freePort();
    const lb = await startTCPBalancer({ ...FAST, port });
    lb.setUpstreams([{ host: '127.0.0.1', port: a.port }]);
    const held = connect({ host: '127.0.0.1', port });
    held.on('error', () => {});
    onTestFinished(() => {
      held.destroy();
    });
    await new Promise((resolve) => held.once('data', resolve)); // a's greeting: proxied
    const closed = new Promise((resolve) => held.once('close', resolve));
    await lb.close();
    await closed;
    await expect(exchange(port)).rejects.toThrow('ECONNREFUSED');
  });
});
