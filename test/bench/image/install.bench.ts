// The install under QEMU (TCG), the disk image on tmpfs so the host's disk is not what is measured: the
// ISO boots under UEFI beside a blank disk, takes a config naming that disk, installs itself and reboots
// (QEMU exits at the reboot); then the VM boots from the disk alone to a configured node. Each step is
// timed on the host clock from the console lines machined writes. Needs `make image`.
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVm, type Vm } from '../../../scripts/lib/qemu.js';
import { encode } from '../../../src/config/index.js';
import { callUnary } from '../../api/fixtures.js';
import { anonymous, artefact, cleanup, client, installing, retry, version } from '../../e2e/node.js';
import { testCluster } from '../../machined/node/cluster.js';
import { freePort } from '../../machined/node/harness.js';
import { figure, group, nowMs } from '../harness.js';

const GiB = 1 << 30;
const STEP_MS = 600_000;

/** at waits for a console line and returns the host clock when it was seen. */
async function at(vm: Vm, re: RegExp): Promise<number> {
  await vm.waitForLine(re, { timeoutMs: STEP_MS });
  return nowMs();
}

const shm = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const dir = mkdtempSync(join(shm, 'keel-bench-install-'));
const vms: Vm[] = [];
try {
  const cluster = await testCluster('keel-bench', 'https://10.0.2.15:6443');
  const config = encode(installing(cluster.controlplane, '/dev/vda'));
  const disk = join(dir, 'disk.raw');
  writeFileSync(disk, '');
  truncateSync(disk, 6 * GiB);

  const isoPort = await freePort();
  const live = startVm({
    boot: { kind: 'iso', path: artefact('keel.iso') },
    firmware: 'uefi',
    apiPort: isoPort,
    dataDisk: disk,
    noReboot: true,
  });
  vms.push(live);
  await live.waitForLine(/apply-config --insecure/, { timeoutMs: STEP_MS });
  await retry('maintenance Version', () => version(isoPort, anonymous()));
  const applied = nowMs();
  await callUnary(client('machine.MachineService', isoPort, anonymous()), 'ApplyConfiguration', {
    data: Buffer.from(config),
    mode: 'AUTO',
  });
  const installing_ = await at(live, /installing v\S+ onto \/dev\/vda/);
  const written = await at(live, /installed onto \/dev\/vda/);
  const stored = await at(live, /the config is kept on STATE/);
  const ended = await Promise.race([
    live.ended,
    new Promise<'timeout'>((r) => setTimeout(r, STEP_MS, 'timeout')),
  ]);
  if (ended === 'timeout') throw new Error('the installed node did not reboot');
  const rebooted = nowMs();

  const port = await freePort();
  const started = nowMs();
  const installed = startVm({
    boot: { kind: 'disk', path: disk, persistent: true },
    firmware: 'uefi',
    apiPort: port,
  });
  vms.push(installed);
  const fromState = await at(installed, /config: loaded from STATE/);
  const running = await at(installed, /node running/);

  await group('install to disk (TCG, disk image on tmpfs, one run)', async () => {
    figure('apply-config → install starts (discovery settled)', installing_ - applied, 'ms');
    figure('writing the disk (GPT, EFI, BOOT, META, boot assets)', written - installing_, 'ms');
    figure('disk written → STATE made and the config stored on it', stored - written, 'ms');
    figure('install time to reboot (apply-config → QEMU exited at the reboot)', rebooted - applied, 'ms');
    figure('first boot from the disk: QEMU start → config loaded from STATE', fromState - started, 'ms');
    figure('first boot from the disk: QEMU start → node running', running - started, 'ms');
  });
} finally {
  await cleanup();
  for (const vm of vms) {
    vm.kill();
    await vm.ended;
  }
  rmSync(dir, { recursive: true, force: true });
}
