// Block discovery time: 16 loop disks, each with a GPT of two partitions (one holding an xfs), from a
// fresh runtime of the discovery controllers until every disk and partition is a DiscoveredVolume with
// what it holds. Needs root (loop devices); the disks are detached afterwards.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DevicesController, DiscoveryController, DisksController } from '../../../controllers/block/index.js';
import { BLOCK_NAMESPACE, DiscoveredVolume } from '../../../resources/block/index.js';
import { startRuntime } from '../../controllers/secrets/env.js';
import { figure, group, nowMs, percentile } from '../harness.js';

const DISKS = 16;
const RUNS = 5;

await group('block discovery, 2 cores (16 loop disks with GPT and xfs; no target set)', async () => {
  if (process.getuid?.() !== 0) throw new Error('the block discovery benchmark needs root (loop devices)');
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-block-'));
  const loops: string[] = [];
  try {
    for (let i = 0; i < DISKS; i++) {
      const image = join(dir, `d${i}.img`);
      writeFileSync(image, '');
      truncateSync(image, 400 * 2 ** 20);
      execFileSync('sgdisk', ['-n', '1:0:+1M', '-c', '1:META', '-n', '2:0:0', '-c', '2:DATA', image], {
        stdio: 'ignore',
      });
      loops.push(execFileSync('losetup', ['-f', '-P', '--show', image], { encoding: 'utf8' }).trim());
    }
    for (const l of loops) {
      for (let t = 0; !existsBlock(`${l}p2`); t++) {
        if (t === 100) execFileSync('partx', ['--add', l], { stdio: 'ignore' });
        if (t > 300) throw new Error(`${l}p2 did not appear`);
        await delay(20);
      }
      execFileSync('mkfs.xfs', ['-q', '-f', `${l}p2`], { stdio: 'ignore' });
    }
    const names = loops.map((l) => l.slice('/dev/'.length));
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const t0 = nowMs();
      const env = startRuntime([DevicesController, DisksController, DiscoveryController]);
      try {
        for (;;) {
          const found = new Map(
            (await env.state.list({ namespace: BLOCK_NAMESPACE, type: DiscoveredVolume.type })).map(
              (r) => [r.metadata.id, (r as DiscoveredVolume).spec] as const,
            ),
          );
          if (names.every((n) => found.get(`${n}p2`)?.name === 'xfs' && found.has(n))) break;
          if (nowMs() - t0 > 60_000) throw new Error('discovery did not finish within 60 s');
          await delay(1);
        }
        times.push(nowMs() - t0);
      } finally {
        await env.stop();
      }
    }
    figure('16 disks discovered, p50', percentile(times, 50), 'ms');
    figure('16 disks discovered, max', Math.max(...times), 'ms');
  } finally {
    for (const l of loops) execFileSync('losetup', ['-d', l]);
    rmSync(dir, { recursive: true, force: true });
  }
});

function existsBlock(p: string): boolean {
  try {
    execFileSync('test', ['-b', p]);
    return true;
  } catch {
    return false;
  }
}
