// A Ready Kubernetes node under QEMU (TCG), as a user makes one: the ISO boots, takes a generated control
// plane config, installs itself and reboots from its disk, takes `talosctl bootstrap`; timed from the
// apply-config until kubectl (through the forwarded 6443) sees the node Ready. Then, the node idle, PID 1's
// resident memory (target ≤ 96 MiB) and machined's CPU over a minute (/proc/1/stat's utime + stime), with
// the kubelet's and the API server's memory for scale. Read through the stock talosctl. Needs `make image`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { API_SERVER_PORT, adminKubectl, nodeReady } from '../../e2e/kubectl.js';
import { cleanup, installedControlPlane, memoryOf, pidsOf, type Talosctl, works } from '../../e2e/node.js';
import { figure, group, nowMs } from '../harness.js';

const READY_TIMEOUT_MS = 30 * 60_000;
/** the node idles this long once Ready: the images' import and the add-ons' first rounds end within it */
const SETTLE_MS = 60_000;
const CPU_WINDOW_MS = 60_000;
const TARGET_MIB = 96;
/** the kernel's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks */
const TICKS_PER_S = 100;

/** cpuTicks is /proc/<pid>/stat's utime + stime (fields 14 and 15, counted after the command's parens). */
async function cpuTicks(tc: Talosctl, pid: number): Promise<number> {
  const stat = works(await tc('read', `/proc/${pid}/stat`));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime 15
  return Number(fields[11]) + Number(fields[12]);
}

const shm = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const dir = mkdtempSync(join(shm, 'keel-bench-node-ready-'));
try {
  const node = await installedControlPlane(dir, 'keel-bench-ready', { forward: [API_SERVER_PORT] });
  const { tc } = node;
  const hostname = (
    JSON.parse(works(await tc('get', 'hostname', '-o', 'json'))) as { spec: { hostname: string } }
  ).spec.hostname;
  const kubectl = await adminKubectl(node, dir);
  await nodeReady(kubectl, hostname, READY_TIMEOUT_MS);
  // wall-clock, as node.times are (the monotonic nowMs is for the CPU window below)
  const ready = Date.now();
  await delay(SETTLE_MS);
  const before = await cpuTicks(tc, 1);
  const t0 = nowMs();
  await delay(CPU_WINDOW_MS);
  const used = (await cpuTicks(tc, 1)) - before;
  const window = nowMs() - t0;
  const pid1 = await memoryOf(tc, 1);
  const [kubelet] = await pidsOf(tc, 'kubelet');
  const [apiserver] = await pidsOf(tc, 'kube-apiserver');

  await group(
    `a Ready control plane under QEMU TCG (2 vCPUs, 2 GiB), settled ${SETTLE_MS / 1000} s (target: PID 1 VmRSS ≤ ${TARGET_MIB} MiB)`,
    async () => {
      figure(
        'apply-config (maintenance) → node Ready, install and reboot included',
        ready - node.times.applied,
        'ms',
      );
      figure('installed disk boots → node Ready', ready - node.times.booted, 'ms');
      figure('talosctl bootstrap taken → node Ready', ready - node.times.bootstrapped, 'ms');
      figure('PID 1 VmRSS', pid1.rss, 'MiB', { op: '<=', value: TARGET_MIB });
      figure('PID 1 RssAnon', pid1.anon, 'MiB');
      figure(
        `machined CPU over ${Math.round(window / 1000)} s idle`,
        (100 * used) / TICKS_PER_S / (window / 1000),
        '%',
      );
      if (kubelet) figure('kubelet VmRSS (for scale)', (await memoryOf(tc, kubelet)).rss, 'MiB');
      if (apiserver) figure('kube-apiserver VmRSS (for scale)', (await memoryOf(tc, apiserver)).rss, 'MiB');
    },
  );
} finally {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
}
