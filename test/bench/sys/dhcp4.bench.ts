// Link up → lease bound, for the DHCPv4 client against dnsmasq over a veth: the time a node spends
// waiting for its address at boot. Needs root; this thread runs in a network namespace of its own and
// dnsmasq in a peer one, both removed afterwards (dnsmasq is killed, and dies with this process).
import { type ChildProcess, execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDhcp4 } from '../../../src/sys/dhcp4/client.js';
import { CLONE_NEWNET, setnsFd, setnsPath } from '../../../src/sys/namespace.js';
import { startDnsmasq, stopChild } from '../dnsmasq.js';
import { figure, group, nowMs, percentile } from '../harness.js';

const RUNS = 20;
const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8' });

/** leaseOnce brings `link` up, starts the client and resolves with ms from link up to the lease. */
function leaseOnce(link: string): Promise<number> {
  return new Promise((resolve, reject) => {
    ip('link', 'set', link, 'up');
    const t0 = nowMs();
    const timer = setTimeout(() => {
      client.stop();
      reject(new Error(`no lease on ${link} in 10 s`));
    }, 10_000);
    const client = startDhcp4({
      link,
      onLease: () => {
        const ms = nowMs() - t0;
        clearTimeout(timer);
        // released so the server's pool does not fill up over the runs
        client.release();
        resolve(ms);
      },
    });
  });
}

await group('DHCP bound time against dnsmasq (target ≤ 100 ms after link up)', async () => {
  if (process.getuid?.() !== 0) throw new Error('the DHCP benchmark needs root (network namespaces)');
  const self = `keel-b-${process.pid}-dhcp`;
  const peer = `keel-b-${process.pid}-dhcps`;
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-dnsmasq-'));
  const home = openSync('/proc/thread-self/ns/net', 'r');
  let dnsmasq: ChildProcess | undefined;
  let entered = false;
  try {
    ip('netns', 'add', self);
    ip('netns', 'add', peer);
    setnsPath(`/run/netns/${self}`, CLONE_NEWNET);
    entered = true;
    ip('link', 'set', 'lo', 'up');
    ip('link', 'add', 'bd0', 'type', 'veth', 'peer', 'name', 'bd1', 'netns', peer);
    ip('netns', 'exec', peer, 'ip', 'addr', 'add', '192.0.2.1/24', 'dev', 'bd1');
    ip('netns', 'exec', peer, 'ip', 'link', 'set', 'bd1', 'up');
    dnsmasq = await startDnsmasq(peer, 'bd1', dir, '2m');

    const bound: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      // a fresh MAC per run: each is a new client to dnsmasq, as a booting node is
      ip('link', 'set', 'bd0', 'down');
      ip('link', 'set', 'bd0', 'address', `02:00:5e:00:01:${i.toString(16).padStart(2, '0')}`);
      const ms = await leaseOnce('bd0');
      if (i > 0) bound.push(ms); // the first run warms up the JIT and the modules
    }
    figure(`link up → lease bound: p50 of ${RUNS}`, percentile(bound, 50), 'ms', { op: '<=', value: 100 });
    figure(`link up → lease bound: p99 of ${RUNS}`, percentile(bound, 99), 'ms');
  } finally {
    if (dnsmasq) await stopChild(dnsmasq);
    if (entered) setnsFd(home, CLONE_NEWNET);
    closeSync(home);
    for (const ns of [self, peer])
      try {
        execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
      } catch {
        // never made: its `netns add` failed
      }
    rmSync(dir, { recursive: true, force: true });
  }
});
