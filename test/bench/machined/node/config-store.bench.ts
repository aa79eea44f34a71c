// Config write latency with fsync: persistConfig (temp file, fsync, rename, fsync of the directory) of a
// generated controlplane config, on a tmpfs (where fsync is free), on the disk the work tree is on, and on
// an xfs of its own on a loop device (the file system a node's STATE partition has upstream).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode, generateConfigs, mintSecrets } from '../../../../src/config/index.js';
import { persistConfig } from '../../../../src/machined/node/config-store.js';
import { figure, group, nowMs, percentile } from '../../harness.js';

const WRITES = 300;
const WARMUP = 20;

const generated = generateConfigs({
  clusterName: 'bench',
  endpoint: 'https://10.5.0.2:6443',
  secrets: await mintSecrets(),
});
const configs = [encode(generated.controlplane), encode(generated.worker)];

const sh = (cmd: string, ...args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** writeLatencies stores the two configs by turns in `stateDir` and returns each write's milliseconds. */
function writeLatencies(stateDir: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < WARMUP + WRITES; i++) {
    const t0 = nowMs();
    persistConfig(stateDir, configs[i % 2]!);
    if (i >= WARMUP) out.push(nowMs() - t0);
  }
  return out;
}

function report(where: string, ms: number[], target?: number): void {
  figure(
    `${where}: p50`,
    percentile(ms, 50),
    'ms',
    target === undefined ? undefined : { op: '<=', value: target },
  );
  figure(`${where}: p99`, percentile(ms, 99), 'ms');
}

/** withMount mounts a file system of its own for `fn`, and always takes it down again. */
function withMount(kind: 'tmpfs' | 'xfs', fn: (dir: string) => void): void {
  const base = mkdtempSync(join(tmpdir(), `keel-bench-${kind}-`));
  const mnt = join(base, 'mnt');
  const image = join(base, 'xfs.img');
  let loop: string | undefined;
  try {
    sh('mkdir', mnt);
    if (kind === 'tmpfs') sh('mount', '-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mnt);
    else {
      // xfs wants 300 MiB at least; the image is sparse
      sh('truncate', '-s', '320M', image);
      sh('mkfs.xfs', '-q', image);
      loop = sh('losetup', '--find', '--show', image);
      sh('mount', '-t', 'xfs', loop, mnt);
    }
    fn(join(mnt, 'state'));
  } finally {
    try {
      sh('umount', mnt);
    } catch {}
    if (loop) sh('losetup', '-d', loop);
    rmSync(base, { recursive: true, force: true });
  }
}

await group(
  `config write latency with fsync, ${(configs[0]!.length / 1024).toFixed(1)} KiB config (target p50 ≤ 5 ms on xfs)`,
  async () => {
    withMount('tmpfs', (dir) => report('tmpfs (fsync is free)', writeLatencies(dir)));
    const disk = mkdtempSync(join(tmpdir(), 'keel-bench-disk-'));
    try {
      const fs = sh('findmnt', '--noheadings', '--output', 'FSTYPE', '--target', disk);
      report(`the work tree's disk (${fs})`, writeLatencies(join(disk, 'state')));
    } finally {
      rmSync(disk, { recursive: true, force: true });
    }
    withMount('xfs', (dir) => report('xfs on a loop device', writeLatencies(dir), 5));
  },
);
