// dnsmasq as the DHCP server of a peer namespace, for benchmarks (test/sys/dhcp4/dnsmasq.ts is the tests'
// twin, tied to vitest's hooks): started through `ip netns exec`, it dies with this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** startDnsmasq serves DHCP on `iface` of namespace `ns` with leases of `lease`; resolves once its range is up. */
export async function startDnsmasq(
  ns: string,
  iface: string,
  dir: string,
  lease: string,
): Promise<ChildProcess> {
  const child = spawn(
    'ip',
    [
      ...['netns', 'exec', ns, 'setpriv', '--pdeathsig', 'KILL', '/usr/sbin/dnsmasq'],
      ...['-k', '--log-facility=-', '--conf-file=/dev/null', `--interface=${iface}`, '--bind-interfaces'],
      ...[`--dhcp-leasefile=${join(dir, 'leases')}`, '--log-dhcp', '--port=0'],
      `--dhcp-range=192.0.2.10,192.0.2.200,255.255.255.0,${lease}`,
      // dnsmasq pings an address before offering it, a wait that is the server's, not the client's
      '--no-ping',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const log: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dnsmasq did not start:\n${log.join('\n')}`)), 10_000);
    createInterface({ input: child.stderr! }).on('line', (l) => {
      log.push(l);
      if (/DHCP, IP range/.test(l)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dnsmasq exited (${code}):\n${log.join('\n')}`));
    });
  });
  return child;
}

/** stopChild kills a child and resolves once it is gone. */
export const stopChild = (c: ChildProcess): Promise<void> =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });
