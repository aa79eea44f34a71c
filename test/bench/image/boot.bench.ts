// The image under QEMU (TCG): the boot timeline kernel start → stage 1 → machined JS start → API ready,
// beside the floor (the same kernel with an init that powers off at once) measured in the same run; the
// artefact sizes; and PID 1's idle RSS in maintenance mode. Needs `make image` (the bench target builds it).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startVm, type Vm } from '../../../scripts/lib/qemu.js';
import { callUnary, type Reply } from '../../api/fixtures.js';
import { anonymous, artefact, client, OUT, version } from '../../e2e/node.js';
import { freePort } from '../../machined/node/harness.js';
import { figure, group, nowMs } from '../harness.js';

const MiB = 1024 * 1024;
// the image's own command line, with printk times so each stage carries the kernel's clock
const cmdline = `${readFileSync('images/cmdline', 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
  .join(' ')} printk.time=1`;

/**
 * kernelTime is the printk timestamp (s) of the first kernel record matching `re`: the last stamp
 * before the match on its console line, since a record can land in the middle of a line machined was
 * still writing to the same console.
 */
async function kernelTime(vm: Vm, re: RegExp): Promise<number> {
  const line = await vm.waitForLine(re, { timeoutMs: 300_000 });
  const at = re.exec(line)?.index ?? 0;
  const stamps = [...line.slice(0, at).matchAll(/\[\s*(\d+\.\d+)\]/g)];
  const m = stamps.at(-1);
  if (!m) throw new Error(`console line without a printk time: ${line}`);
  return Number(m[1]);
}

let floorMs = 0;

await group('boot floor: the same kernel, an init that powers off at once', async () => {
  const t0 = nowMs();
  const vm = startVm({
    boot: { kind: 'kernel', kernel: artefact('vmlinuz'), initrd: artefact('floor.img'), cmdline },
    noReboot: true,
  });
  try {
    const reached = await kernelTime(vm, /\[keel\] \[floor\] init reached/);
    figure('QEMU start → floor init reached (host clock)', nowMs() - t0, 'ms');
    figure('kernel start → floor init reached', reached * 1000, 'ms');
    await vm.ended;
    floorMs = nowMs() - t0;
    figure('QEMU start → powered off', floorMs, 'ms');
  } finally {
    vm.kill();
  }
});

await group('boot timeline to the maintenance API (target: API ready ≤ floor + 3 s)', async () => {
  const port = await freePort();
  const t0 = nowMs();
  const vm = startVm({
    boot: { kind: 'kernel', kernel: artefact('vmlinuz'), initrd: artefact('initramfs.img'), cmdline },
    apiPort: port,
  });
  try {
    // the forwarded port accepts before the node listens: poll Version until it answers
    let answered = 0;
    while (answered === 0) {
      try {
        await version(port, anonymous());
        answered = nowMs();
      } catch {
        if (nowMs() - t0 > 300_000) throw new Error(`no API after 300 s:\n${vm.lines.slice(-20).join('\n')}`);
        await delay(100);
      }
    }
    const stage1 = await kernelTime(vm, /\[keel\] \[initramfs\] stage 1 started/);
    const exec = await kernelTime(vm, /\[keel\] \[initramfs\] exec \/sbin\/init/);
    const js = await kernelTime(vm, /\[keel\] machined started/);
    const ready = await kernelTime(vm, /\[keel\] api ready/);
    figure('kernel start → stage 1 started', stage1 * 1000, 'ms');
    figure('stage 1 started → exec /sbin/init', (exec - stage1) * 1000, 'ms');
    figure('exec /sbin/init → machined JS start', (js - exec) * 1000, 'ms');
    figure('machined JS start → API ready', (ready - js) * 1000, 'ms');
    figure('kernel start → API ready', ready * 1000, 'ms');
    const apiMs = answered - t0;
    figure('QEMU start → Version answered (host clock)', apiMs, 'ms');
    figure('API ready minus floor (QEMU start → powered off)', apiMs - floorMs, 'ms', {
      op: '<=',
      value: 3000,
    });

    // idle in maintenance mode for a while, then PID 1's resident set as the node reports it
    await delay(15_000);
    const m = client('machine.MachineService', port, anonymous());
    const reply = await callUnary(m, 'Processes', {});
    const procs = ((reply.messages as Reply[])[0]!.processes as Reply[]) ?? [];
    m.close();
    const init = procs.find((p) => Number(p.pid) === 1);
    if (!init) throw new Error('Processes did not list PID 1');
    figure('PID 1 idle RSS in maintenance mode', Number(init.resident_memory) / MiB, 'MiB', {
      op: '<=',
      value: 64,
    });
  } finally {
    vm.kill();
    await vm.ended;
  }
});

await group('image sizes (targets: initramfs ≤ 40 MB, ISO ≤ 100 MB)', async () => {
  const MB = 1_000_000;
  const size = (name: string) => statSync(join(OUT, name)).size / MB;
  figure('kernel (bzImage)', size('vmlinuz'), 'MB');
  figure('root squashfs', size('rootfs.sqsh'), 'MB');
  figure('initramfs', size('initramfs.img'), 'MB', { op: '<=', value: 40 });
  figure('UKI', size('keel.efi'), 'MB');
  figure('ISO', size('keel.iso'), 'MB', { op: '<=', value: 100 });
  figure('raw disk image (allocated)', (statSync(join(OUT, 'keel.raw')).blocks * 512) / MB, 'MB');
});
