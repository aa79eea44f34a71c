// PID 1 costs: the reaper's scans with 1,000 live children, reaping 1,000 orphans, and machined's idle RSS.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { childPids, reapOnce, sweepChildren } from '../../../src/machined/reaper.js';
import { setChildSubreaper } from '../../../src/sys/prctl.js';
import { figure, group, nowMs } from '../harness.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const LIVE = 1_000;

/** orphanSleepers leaves `n` sleeping processes reparented to us (we are their subreaper) and returns their pids. */
async function orphanSleepers(n: number): Promise<number[]> {
  setChildSubreaper(true);
  const before = new Set(childPids()); // e.g. the TypeScript loader's helper process: not ours to kill
  spawnSync('/bin/sh', ['-c', `i=0; while [ $i -lt ${n} ]; do sleep 600 & i=$((i+1)); done`], {
    stdio: 'ignore',
  });
  const sleepers = () => childPids().filter((p) => !before.has(p));
  // reparenting has no event: poll until all arrived
  for (let i = 0; i < 200 && sleepers().length < n; i++) await delay(25);
  if (sleepers().length < n) throw new Error(`only ${sleepers().length} of ${n} orphans arrived`);
  return sleepers();
}

const perCall = (n: number, fn: () => void): number => {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e3 / n;
};

await group(
  'reaper with 1,000 live children (target ≤ 50 µs per SIGCHLD scan, ≤ 5 ms per backstop sweep)',
  async () => {
    const sleepers = await orphanSleepers(LIVE);
    try {
      figure(
        'scan (waitid peek, nothing to reap)',
        perCall(10_000, () => reapOnce()),
        'µs/scan',
        {
          op: '<=',
          value: 50,
        },
      );
      figure(
        'backstop sweep (children files + waitid per pid)',
        perCall(100, () => sweepChildren()),
        'µs/sweep',
        {
          op: '<=',
          value: 5_000,
        },
      );
      figure(
        'listing children only (/proc/self/task/*/children)',
        perCall(100, () => childPids()),
        'µs/list',
      );
    } finally {
      for (const pid of sleepers) process.kill(pid, 'SIGKILL');
    }
    const t0 = nowMs();
    let reaped = 0;
    while (reaped < LIVE && nowMs() - t0 < 30_000) {
      reaped += reapOnce().length;
      if (reaped < LIVE) await delay(1);
    }
    figure('reap 1,000 killed orphans', nowMs() - t0, 'ms');
    setChildSubreaper(false);
  },
);

/** bundle builds the idle fixture as the single file a node would run (native koffi stays on disk). */
async function bundle(): Promise<string> {
  const dir = join(repo, 'node_modules/.cache/keel-bench');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'machined-idle.mjs');
  await build({
    entryPoints: [join(repo, 'test/integration/machined/fixtures/idle.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    external: ['koffi'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  return out;
}

await group('machined idle memory as PID 1, runtime up (target ≤ 64 MiB RSS)', async () => {
  const script = await bundle();
  const root = mkdtempSync(join(tmpdir(), 'keel-bench-'));
  const child = spawn(
    'unshare',
    ['--pid', '--fork', '--mount-proc', '--mount', '--kill-child=SIGKILL', process.execPath, script, root],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((res, rej) => {
      let text = '';
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('READY\n')) res();
      });
      child.once('exit', () => rej(new Error(`machined ended before READY:\n${text}`)));
    });
    const inner = Number(
      readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0],
    );
    await delay(2_000); // idle: let start-up garbage be collected
    const status = readFileSync(`/proc/${inner}/status`, 'utf8');
    const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    figure('RSS (bundled, node 20)', kib('VmRSS') / 1024, 'MiB', { op: '<=', value: 64 });
    figure('anonymous RSS', kib('RssAnon') / 1024, 'MiB');
    figure('threads', kib('Threads') || Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]), 'threads');
    process.kill(inner, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
  } finally {
    child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});
