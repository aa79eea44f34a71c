// PID 1's resident memory on a working control plane under QEMU (TCG): installed from the ISO, booted from
// its disk, bootstrapped, etcd and containerd healthy and the toolbox image imported; then, once machined's
// start-up memory has settled, VmRSS sampled a few times (the median against the target), what it is made
// of (/proc/1/smaps_rollup and the largest mappings of /proc/1/smaps), and etcd's and containerd's for
// scale. Read through the stock talosctl (`read /proc/…`). Needs `make image`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  cleanup,
  etcdHealthy,
  importedImage,
  installedControlPlane,
  type Memory,
  memoryOf,
  pidsOf,
  serviceHealthy,
  type Talosctl,
  works,
} from '../../e2e/node.js';
import { figure, group, nowMs } from '../harness.js';

/**
 * how long the node idles once everything is healthy: machined returns its start-up memory 10 s after
 * an API listens, and the import and the first health checks of etcd (every 20 s) end within this
 */
const SETTLE_MS = 60_000;
const SAMPLES = 5;
const SAMPLE_EVERY_MS = 10_000;
const TARGET_MIB = 96;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** rollup is /proc/1/smaps_rollup's kB fields, in MiB. */
async function rollup(tc: Talosctl): Promise<Record<string, number>> {
  const out = works(await tc('read', '/proc/1/smaps_rollup'));
  return Object.fromEntries(
    [...out.matchAll(/^(\w+):\s+(\d+) kB$/gm)].map((m) => [m[1]!, Number(m[2]) / 1024]),
  );
}

/** largestMappings sums /proc/1/smaps' Rss by what is mapped (a file, [heap], or anonymous), largest first. */
async function largestMappings(tc: Talosctl, n: number): Promise<[string, number][]> {
  const out = works(await tc('read', '/proc/1/smaps'));
  const by = new Map<string, number>();
  let name = '';
  for (const line of out.split('\n')) {
    // a mapping's header: address range, perms, offset, device, inode, then the path if any
    const head = /^[0-9a-f]+-[0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\d+\s*(.*)$/.exec(line);
    if (head) name = head[1]!.trim() || '(anonymous)';
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss) by.set(name, (by.get(name) ?? 0) + Number(rss[1]) / 1024);
  }
  return [...by].sort((a, b) => b[1] - a[1]).slice(0, n);
}

const shm = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const dir = mkdtempSync(join(shm, 'keel-bench-node-rss-'));
try {
  const t0 = nowMs();
  const { tc } = await installedControlPlane(dir, 'keel-bench-rss');
  await etcdHealthy(tc);
  await serviceHealthy(tc, 'containerd');
  await importedImage(tc, 'toolbox');
  const healthyMs = nowMs() - t0;
  await delay(SETTLE_MS);
  const samples: Memory[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await delay(SAMPLE_EVERY_MS);
    samples.push(await memoryOf(tc, 1));
  }
  const parts = await rollup(tc);
  const mappings = await largestMappings(tc, 5);
  const [etcd] = await pidsOf(tc, 'etcd');
  const [containerd] = await pidsOf(tc, 'containerd');
  if (!etcd || !containerd) throw new Error('`talosctl processes` lists no etcd or containerd');
  const others = { etcd: await memoryOf(tc, etcd), containerd: await memoryOf(tc, containerd) };

  await group(
    `PID 1 on an installed control plane, etcd and containerd running, ${SETTLE_MS / 1000} s settled (QEMU TCG; median of ${SAMPLES} samples ${SAMPLE_EVERY_MS / 1000} s apart; target: VmRSS ≤ ${TARGET_MIB} MiB)`,
    async () => {
      figure('QEMU start → etcd, containerd healthy, toolbox imported', healthyMs, 'ms');
      figure('PID 1 VmRSS', median(samples.map((s) => s.rss)), 'MiB', { op: '<=', value: TARGET_MIB });
      figure('PID 1 VmRSS, lowest sample', Math.min(...samples.map((s) => s.rss)), 'MiB');
      figure('PID 1 VmRSS, highest sample', Math.max(...samples.map((s) => s.rss)), 'MiB');
      figure('PID 1 RssAnon', median(samples.map((s) => s.anon)), 'MiB');
      figure('PID 1 RssFile', median(samples.map((s) => s.file)), 'MiB');
      figure('PID 1 RssShmem', median(samples.map((s) => s.shmem)), 'MiB');
      for (const f of ['Pss', 'Private_Dirty', 'Private_Clean', 'Shared_Clean', 'Swap'])
        if (parts[f] !== undefined) figure(`PID 1 smaps_rollup ${f}`, parts[f]!, 'MiB');
      for (const [name, mib] of mappings) figure(`PID 1 Rss in ${name}`, mib, 'MiB');
      figure('etcd VmRSS (for scale)', others.etcd.rss, 'MiB');
      figure('containerd VmRSS (for scale)', others.containerd.rss, 'MiB');
    },
  );
} finally {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
}
