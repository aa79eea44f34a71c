// A real NTP server for the tests: Debian's chronyd (fetched by scripts/ntp-server.sh, never installed),
// run with -x so it never touches this host's clock, serving its local clock at a chosen stratum on a
// free loopback port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { queryAddress } from '../../../src/sys/ntp/index.js';
import { repo } from '../child.js';

let chronydPath: string | undefined;

/** chronydBinary runs the fetch script once per test file (a cache hit after the first run). */
export function chronydBinary(): string {
  chronydPath ??= execFileSync(join(repo, 'scripts/ntp-server.sh'), { encoding: 'utf8' }).trim();
  return chronydPath;
}

export interface Chronyd {
  readonly address: string;
  readonly port: number;
  /** what chronyd wrote, for a failing test's message */
  log(): string;
  stop(): Promise<void>;
}

/** freeUdpPort asks the kernel for an unused loopback port. */
export async function freeUdpPort(address = '127.0.0.1'): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(0, address, resolve);
  });
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** startChronyd starts chronyd and resolves once it answers a query; stop() kills it and its files. */
export async function startChronyd(
  opts: { stratum?: number; conf?: readonly string[] } = {},
): Promise<Chronyd> {
  const bin = chronydBinary();
  // the port can be taken between the probe and chronyd's bind: try a few
  for (let attempt = 0; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'keel-chronyd-'));
    const port = await freeUdpPort();
    const conf = join(dir, 'chrony.conf');
    writeFileSync(
      conf,
      [
        `local stratum ${opts.stratum ?? 8}`,
        'allow 127.0.0.1',
        'bindaddress 127.0.0.1',
        `port ${port}`,
        'cmdport 0',
        `pidfile ${join(dir, 'chronyd.pid')}`,
        `driftfile ${join(dir, 'drift')}`,
        ...(opts.conf ?? []),
        '',
      ].join('\n'),
    );
    let out = '';
    const child = spawn(bin, ['-x', '-d', '-u', userInfo().username, '-f', conf], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const stop = () => stopChild(child, dir);
    const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
    const ready = await waitAnswering(port, exited);
    if (ready) return { address: '127.0.0.1', port, log: () => out, stop };
    await stop();
    if (attempt >= 2) throw new Error(`chronyd did not start answering on port ${port}:\n${out}`);
  }
}

async function waitAnswering(port: number, exited: Promise<'exited'>): Promise<boolean> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const r = await Promise.race([
      queryAddress('127.0.0.1', { port, timeoutMs: 250 }).then(
        () => 'up' as const,
        () => 'not-yet' as const,
      ),
      exited,
    ]);
    if (r === 'up') return true;
    if (r === 'exited') return false;
  }
  return false;
}

async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
}
