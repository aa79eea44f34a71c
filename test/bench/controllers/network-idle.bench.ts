// The node's network and time controllers at rest: once ip=<link>:dhcp has its lease from dnsmasq,
// nothing changes, so any CPU they burn is polling. Needs root: this thread runs in network and UTS
// namespaces of its own (the hostname controller sets the name for real), dnsmasq in a peer namespace;
// all are left and removed afterwards. The etc files go to a temporary directory; the clock is never set.
import { type ChildProcess, execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AddressStatus, Family, NETWORK_NAMESPACE } from '../../../resources/network/index.js';
import {
  type Controller,
  type Logger,
  Runtime,
  type RuntimeMetrics,
} from '../../../src/cosi/controller/index.js';
import { kind } from '../../../src/cosi/resource/kind.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { networkControllers } from '../../../src/machined/node/network-controllers.js';
import { CLONE_NEWNET, CLONE_NEWUTS, setnsFd, setnsPath, unshare } from '../../../src/sys/namespace.js';
import { startDnsmasq, stopChild } from '../dnsmasq.js';
import { figure, group } from '../harness.js';

const LINK = 'ni0';
const IDLE_MS = 60_000;
// not 5 s: V8's memory reducer shrinks the heap with a few incremental mark-compacts 10–30 s after
// start-up's allocations stop (≈ 0.3 % of a core over the next minute); that is start-up, not idling.
// The TypeScript loader's own isolate may still do so later, inside the window.
const SETTLE_MS = 30_000;
const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8' });

/** nodeControllers are the node's own, with the host-facing effects kept off this host. */
const nodeControllers = (etcDir: string): Promise<Controller[]> =>
  networkControllers({
    cmdline: `ip=${LINK}:dhcp`,
    machineIdentity: 'bench',
    etcDir,
    // the UTS namespace is this process's own (unshared below), so the real setter is kept
    // the NTP loop runs as on a node; a correction, should a server ever answer, is refused
    adjustTime: () => {
      throw new Error('the benchmark does not set the clock');
    },
  });

/** delta is `after - before` of one counter metric, per controller, without the zeros. */
const delta = (after: RuntimeMetrics, before: RuntimeMetrics, m: keyof RuntimeMetrics) =>
  Object.entries(after[m])
    .map(([k, v]) => [k, v - (before[m][k] ?? 0)] as const)
    .filter(([, v]) => v !== 0)
    .sort((a, b) => b[1] - a[1]);

/** threadCpuNs is each thread's CPU time so far (schedstat, ns), to tell the main thread's share. */
function threadCpuNs(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task'))
    try {
      out.set(Number(tid), Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended meanwhile
    }
  return out;
}

/** waitForLease polls until the DHCP address is in the kernel and reported (before the window only). */
async function waitForLease(state: State): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const all = await state.list(kind(NETWORK_NAMESPACE, AddressStatus.type));
    const hit = all.find(
      (r) => AddressStatus.is(r) && r.spec.linkName === LINK && r.spec.family === Family.Inet4,
    );
    if (hit) return hit.metadata.id;
    if (Date.now() - t0 > 30_000) throw new Error(`no DHCP address on ${LINK} in 30 s`);
    await sleep(50);
  }
}

await group(
  'CPU time of the network stack over 60 s with nothing changing (target ≤ 0.1 % of a core)',
  async () => {
    if (process.getuid?.() !== 0)
      throw new Error('the network idle benchmark needs root (network and UTS namespaces)');
    const self = `keel-b-${process.pid}-idle`;
    const peer = `keel-b-${process.pid}-idles`;
    const dir = mkdtempSync(join(tmpdir(), 'keel-bench-idle-'));
    const homeNet = openSync('/proc/thread-self/ns/net', 'r');
    const homeUts = openSync('/proc/thread-self/ns/uts', 'r');
    let dnsmasq: ChildProcess | undefined;
    let stop: (() => Promise<void>) | undefined;
    let enteredNet = false;
    let enteredUts = false;
    try {
      unshare(CLONE_NEWUTS);
      enteredUts = true;
      ip('netns', 'add', self);
      ip('netns', 'add', peer);
      setnsPath(`/run/netns/${self}`, CLONE_NEWNET);
      enteredNet = true;
      ip('link', 'set', 'lo', 'up');
      // left down: bringing it up is the controllers' job
      ip('link', 'add', LINK, 'type', 'veth', 'peer', 'name', 'ni1', 'netns', peer);
      ip('netns', 'exec', peer, 'ip', 'addr', 'add', '192.0.2.1/24', 'dev', 'ni1');
      ip('netns', 'exec', peer, 'ip', 'link', 'set', 'ni1', 'up');
      // an hour's lease: its renewal (T1, half of it) must not fall in the idle window
      dnsmasq = await startDnsmasq(peer, 'ni1', dir, '1h');

      // warnings during the idle window are a sign of what keeps waking
      const logged: string[] = [];
      let window = false;
      const at = (level: string) => (msg: string) => {
        if (window) logged.push(`${level}: ${msg}`);
      };
      const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
      const state = wrapCore(newInmemState());
      const rt = new Runtime(state, { logger });
      for (const c of await nodeControllers(join(dir, 'etc'))) rt.register(c);
      const ac = new AbortController();
      const done = rt.run({ signal: ac.signal });
      stop = async () => {
        ac.abort();
        await done;
      };

      const id = await waitForLease(state);
      console.log(`  lease applied: ${id}; settling ${SETTLE_MS / 1000} s`);
      await sleep(SETTLE_MS);

      const m0 = rt.metrics();
      window = true;
      const th0 = threadCpuNs();
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await sleep(IDLE_MS);
      const cpu = process.cpuUsage(c0);
      const wallUs = Number(process.hrtime.bigint() - t0) / 1e3;
      const th1 = threadCpuNs();
      window = false;
      const m1 = rt.metrics();

      figure(
        `user+system CPU over ${IDLE_MS / 1000} s idle`,
        ((cpu.user + cpu.system) / wallUs) * 100,
        '% of a core',
        {
          op: '<=',
          value: 0.1,
        },
      );
      console.log(`  (user ${(cpu.user / 1e3).toFixed(1)} ms, system ${(cpu.system / 1e3).toFixed(1)} ms)`);
      // the controllers run on the main thread; the others are V8's, libuv's and the TypeScript loader's
      const main = ((th1.get(process.pid) ?? 0) - (th0.get(process.pid) ?? 0)) / 1e6;
      const others = [...th1]
        .filter(([tid]) => tid !== process.pid)
        .map(([tid, ns]) => [tid, (ns - (th0.get(tid) ?? 0)) / 1e6] as const)
        .filter(([, ms]) => ms >= 0.5)
        .sort((a, b) => b[1] - a[1]);
      figure('  of which the main thread', ((main * 1e3) / wallUs) * 100, '% of a core');
      console.log(
        `  (other threads, ms: ${others.map(([t, ms]) => `${t} ${ms.toFixed(1)}`).join(', ') || 'none'})`,
      );
      if (delta(m1, m0, 'controller_wakeups').length === 0) console.log('  idle: no controller woke');
      for (const m of [
        'controller_wakeups',
        'controller_reads',
        'controller_writes',
        'reconcile_cycles',
      ] as const)
        for (const [k, v] of delta(m1, m0, m)) console.log(`  idle ${m}: ${k} ${v}`);
      for (const l of logged.slice(0, 20)) console.log(`  idle log ${l}`);
      if (logged.length > 20) console.log(`  idle log: ${logged.length - 20} more lines`);

      await group('RSS with the network stack loaded', async () => {
        const gc = (globalThis as { gc?: () => void }).gc;
        if (!gc) throw new Error('benchmarks need node --expose-gc');
        gc();
        gc();
        const mem = process.memoryUsage();
        // RSS includes this runner's TypeScript loader thread, which the node's bundle does not have
        figure('RSS after a full GC, network and time controllers running', mem.rss / 2 ** 20, 'MiB');
        figure('V8 heap used after a full GC', mem.heapUsed / 2 ** 20, 'MiB');
      });
    } finally {
      await stop?.();
      if (dnsmasq) await stopChild(dnsmasq);
      if (enteredNet) setnsFd(homeNet, CLONE_NEWNET);
      if (enteredUts) setnsFd(homeUts, CLONE_NEWUTS);
      closeSync(homeNet);
      closeSync(homeUts);
      for (const ns of [self, peer])
        try {
          execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
        } catch {
          // never made: its `netns add` failed
        }
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
