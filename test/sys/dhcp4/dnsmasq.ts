// dnsmasq as the DHCP server of a peer namespace, its log (stderr, --log-dhcp) kept for assertions.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll } from 'vitest';
import type { Peer } from '../netns.js';

const DNSMASQ = '/usr/sbin/dnsmasq';

export interface Dnsmasq {
  readonly log: readonly string[];
  readonly leaseFile: string;
  /** waitFor resolves with the first log line from index `from` on that matches */
  waitFor(re: RegExp, opts?: { from?: number; timeoutMs?: number }): Promise<string>;
  stop(): Promise<void>;
}

/** startDnsmasq serves DHCP on `iface` in `peer` and resolves once its range is up. */
export async function startDnsmasq(peer: Peer, iface: string, args: readonly string[]): Promise<Dnsmasq> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-dnsmasq-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const child: ChildProcess = peer.start(DNSMASQ, [
    '-k',
    '--log-facility=-',
    '--conf-file=/dev/null',
    `--interface=${iface}`,
    '--bind-interfaces',
    `--dhcp-leasefile=${join(dir, 'leases')}`,
    '--log-dhcp',
    '--port=0',
    ...args,
  ]);
  const log: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stderr! }).on('line', (l) => {
    log.push(l);
    for (const w of waiters) w();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const d: Dnsmasq = {
    log,
    leaseFile: join(dir, 'leases'),
    waitFor(re, { from = 0, timeoutMs = 20_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = log.slice(from).find((l) => re.test(l));
          if (hit === undefined) return false;
          done();
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`dnsmasq logged nothing matching ${re} in ${timeoutMs} ms:\n${log.join('\n')}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        const waiter = () => void check();
        waiters.add(waiter);
        check();
        void exited.then(() => {
          if (waiters.has(waiter) && !check()) {
            done();
            reject(new Error(`dnsmasq exited (${child.exitCode}):\n${log.join('\n')}`));
          }
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  await d.waitFor(/DHCP, IP range/);
  return d;
}
