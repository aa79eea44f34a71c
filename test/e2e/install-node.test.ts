// A node's whole life on a disk, driven by the stock talosctl: the ISO boots under UEFI beside a blank
// virtual disk, takes a config whose install disk is that disk, installs itself and reboots; from then on
// the VM boots from the disk alone (the ISO detached). There it comes up configured, with its identity and
// /var, and runs etcd (bootstrapped once) from the components layer installed beside the UKI; a shutdown,
// a look at the disk from the host (which then grows the disk: EPHEMERAL follows) and an API reboot keep
// all of it; `talosctl reset` wipes STATE and EPHEMERAL and sends it back to maintenance.
import { existsSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Config, encode, encodeTalosconfig, newTalosconfig } from '../../src/config/index.js';
import { kernelPartitionsOf, partitionByName, readGpt, syncKernel } from '../../src/sys/block/gpt/index.js';
import { mount, umount } from '../../src/sys/mount.js';
import { talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { testCluster } from '../machined/node/cluster.js';
import { freePort } from '../machined/node/harness.js';
import { attachLoop } from '../sys/block/gpt/loop-device.js';
import {
  anonymous,
  artefact,
  boot,
  bootstrap,
  cleanup,
  etcdHealthy,
  installing,
  retry,
  rowOf,
  version,
  withMachine,
  works,
} from './node.js';

const BOOT_MS = 300_000;
const GiB = 1 << 30;
const GUEST = '10.0.2.15';

let dir: string;
let bin: string;
let cluster: Awaited<ReturnType<typeof testCluster>>;

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error('needs root: the installed disk is inspected through a loop device');
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-install-node-'));
  bin = talosctlPath();
  cluster = await testCluster('keel-install', `https://${GUEST}:6443`);
  const cfg = installing(cluster.controlplane, '/dev/vda');
  writeFileSync(join(dir, 'controlplane.yaml'), encode(cfg));
  for (const label of ['tried', 'staged'])
    writeFileSync(join(dir, `${label}.yaml`), encode(labelled(cfg, label)));
  const talosconfig = newTalosconfig({
    clusterName: 'keel-install',
    osCACrt: cluster.bundle.certs.os.crt,
    admin: { crt: b64(cluster.admin.crt), key: b64(cluster.admin.key) },
    endpoints: [],
  });
  writeFileSync(join(dir, 'talosconfig'), encodeTalosconfig(talosconfig));
}, 10 * 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanup);

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** labelled adds the node label `keel-e2e: <value>`: a change that applies without a reboot. */
const labelled = (cfg: Config, value: string): Config =>
  withMachine(cfg, { nodeLabels: { 'keel-e2e': value } });

/** admin runs talosctl with the admin's talosconfig: the forwarded port as endpoint, the guest as node. */
const admin = (port: number, ...args: string[]) =>
  talosctl(bin, ['-e', `127.0.0.1:${port}`, '-n', GUEST, ...args], {
    talosconfig: join(dir, 'talosconfig'),
    cwd: dir,
    timeoutMs: 120_000,
  });

/**
 * bootInstalled boots the VM from the installed disk alone and waits for the configured node; the first
 * boot bootstraps etcd (a control plane's boot waits for it), later ones restart the member /var keeps.
 */
async function bootInstalled(disk: string, opts: { bootstrap?: boolean } = {}) {
  const port = await freePort();
  const vm = boot({ boot: { kind: 'disk', path: disk, persistent: true }, firmware: 'uefi', apiPort: port });
  await vm.waitForLine(/config: loaded from STATE|apply-config --insecure/, { timeoutMs: BOOT_MS });
  if (opts.bootstrap) await bootstrap((...args) => admin(port, ...args));
  await vm.waitForLine(/node running/, { timeoutMs: BOOT_MS });
  return { vm, port };
}

/** configuredState reads what must survive every reboot: the config's cluster name and the node identity. */
async function configuredState(port: number) {
  const mc = works(await admin(port, 'get', 'mc', '-o', 'yaml'));
  expect(mc).toContain('clusterName: keel-install');
  const identity = works(await admin(port, 'get', 'Identities.cluster.talos.dev', 'local', '-o', 'yaml'));
  const nodeId = /nodeId: (\S+)/.exec(identity)?.[1];
  expect(nodeId, identity).toMatch(/^[0-9A-Za-z]{40,}$/);
  return { nodeId: nodeId! };
}

/** onEphemeral mounts the disk's EPHEMERAL on the host for `fn`, the VM being off. */
async function onEphemeral<T>(disk: string, fn: (root: string) => T): Promise<T> {
  const loop = attachLoop(disk);
  const { table } = await readGpt(loop.fd);
  const eph = partitionByName(table, 'EPHEMERAL');
  expect(eph, 'EPHEMERAL in the installed GPT').toBeDefined();
  const root = join(dir, 'ephemeral');
  mkdirSync(root, { recursive: true });
  // told partition by partition: a host kernel without GPT support finds none by itself
  syncKernel(loop.fd, kernelPartitionsOf(table));
  const dev = `${loop.path}p${eph!.number}`;
  await retry(`${dev} appears`, async () => expect(existsSync(dev)).toBe(true), 10_000);
  mount(dev, root, 'xfs');
  try {
    return fn(root);
  } finally {
    umount(root);
  }
}

describe('a node installed from the ISO, booted from its disk', () => {
  it(
    'installs, comes up from the disk with its config, identity and /var, keeps them, and resets',
    async () => {
      const disk = join(dir, 'disk.raw');
      writeFileSync(disk, '');
      truncateSync(disk, 6 * GiB);

      // 1. the ISO beside the blank disk; the reboot after the install ends this QEMU (the ISO detached)
      const isoPort = await freePort();
      const live = boot({
        boot: { kind: 'iso', path: artefact('keel.iso') },
        firmware: 'uefi',
        apiPort: isoPort,
        dataDisk: disk,
        noReboot: true,
      });
      await live.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      await retry('maintenance Version', () => version(isoPort, anonymous()));
      works(
        await talosctl(
          bin,
          ['apply-config', '--insecure', '-n', `127.0.0.1:${isoPort}`, '-f', join(dir, 'controlplane.yaml')],
          { cwd: dir, timeoutMs: 120_000 },
        ),
      );
      await live.waitForLine(/installed onto \/dev\/vda: EFI/, { timeoutMs: 10 * 60_000 });
      const ended = await Promise.race([
        live.ended,
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5 * 60_000)),
      ]);
      expect(ended, live.lines.slice(-40).join('\n')).toEqual({ code: 0, signal: null });
      expect(live.lines.join('\n')).toMatch(/reboot: Restarting system/);

      // 2. from the disk: configured from STATE, mutual TLS only, the system volumes Ready, etcd running
      // from the components layer the install put beside the UKI (the ISO is gone)
      const first = await bootInstalled(disk, { bootstrap: true });
      expect(first.vm.lines.join('\n')).toMatch(/config: loaded from STATE/);
      expect(first.vm.lines.join('\n')).not.toMatch(/installing v|install: (failed|refused)/);
      expect(works(await admin(first.port, 'version'))).toMatch(/Server:\n\tNODE:\s+10\.0\.2\.15\n\tTag:/);
      const before = await configuredState(first.port);
      const statuses = await retry('META, STATE and EPHEMERAL ready', async () => {
        const out = works(await admin(first.port, 'get', 'volumestatus'));
        for (const v of ['META', 'STATE', 'EPHEMERAL'])
          expect(rowOf(out, 'VolumeStatus', v)).toMatch(/\sready\s/);
        return out;
      });
      expect(rowOf(statuses, 'VolumeStatus', 'STATE')).toMatch(/\s\/dev\/vda\d\s+105 MB/);
      expect(rowOf(works(await admin(first.port, 'get', 'systemdisk')), 'SystemDisk', 'system-disk')).toMatch(
        /\svda\s*$/,
      );
      const mounts = works(await admin(first.port, 'mounts'));
      expect(mounts).toMatch(/\/dev\/vda\d\s.*\s\/var\s*$/m);
      expect(mounts).toMatch(/\/dev\/vda\d\s.*\s\/system\/state\s*$/m);
      // the machine is told the config is kept: no maintenance port answers anonymously any more
      await expect(version(first.port, anonymous())).rejects.toThrow();
      const layer = works(await admin(first.port, 'get', 'componentslayers', 'components', '-o', 'yaml'));
      expect(layer).toMatch(/source: \/dev\/vda1:\/keel\/components-v[^/\s]+\.sqsh/);
      expect(layer).toMatch(/^\s+etcd v3\.6\.\d+ /m);
      const bins = works(await admin(first.port, 'ls', '/run/keel/components/usr/bin'));
      for (const b of ['etcd', 'containerd', 'runc']) expect(bins).toMatch(new RegExp(`\\s${b}$`, 'm'));
      // Kubernetes' layer went beside it, and is mounted from the disk as well
      const k8s = works(await admin(first.port, 'get', 'componentslayers', 'kubernetes', '-o', 'yaml'));
      expect(k8s).toMatch(/source: \/dev\/vda1:\/keel\/kubernetes-v[^/\s]+\.sqsh/);
      expect(k8s).toMatch(/^\s+kubernetes v1\.\d+\.\d+ /m);
      expect(works(await admin(first.port, 'ls', '/run/keel/kubernetes/usr/bin'))).toMatch(/\skubelet$/m);
      await etcdHealthy((...args) => admin(first.port, ...args));

      const ephemeralSize = async (port: number) =>
        Number(
          /^\s*size: (\d+)$/m.exec(
            works(await admin(port, 'get', 'volumestatus', 'EPHEMERAL', '-o', 'yaml')),
          )?.[1],
        );
      const firstSize = await ephemeralSize(first.port);
      expect(firstSize).toBeGreaterThan(5 * GiB);

      // 3. powered off, the disk seen from the host: the node's /var is the disk's EPHEMERAL; then the
      // disk grows by 1 GiB, as a virtual disk resized by its owner
      works(await admin(first.port, 'shutdown', '--wait=false'));
      await first.vm.ended;
      const marker = `written between boots ${Date.now()}`;
      await onEphemeral(disk, (root) => writeFileSync(join(root, 'e2e-marker'), marker));
      truncateSync(disk, 7 * GiB);

      // 4. the second boot from the disk keeps the config, the identity and /var's contents; EPHEMERAL
      // and its filesystem take the new room
      const second = await bootInstalled(disk);
      expect(await configuredState(second.port)).toEqual(before);
      expect(works(await admin(second.port, 'read', '/var/e2e-marker'))).toBe(marker);
      expect(await ephemeralSize(second.port)).toBeGreaterThan(firstSize + GiB - 64 * 2 ** 20);
      // etcd restarted from the member /var kept: no second bootstrap
      await etcdHealthy((...args) => admin(second.port, ...args));
      expect(second.vm.lines.join('\n')).toMatch(/volume grown \{.*"volume":"EPHEMERAL"/);

      // 5. a tried config is active until its timeout, then the kept one is back
      const mc = async () => works(await admin(second.port, 'get', 'mc', '-o', 'yaml'));
      const tried = await admin(
        second.port,
        'apply-config',
        '-f',
        join(dir, 'tried.yaml'),
        '--mode',
        'try',
        '--timeout',
        '20s',
      );
      works(tried);
      // talosctl prints the node's answer on stderr
      expect(tried.output).toMatch(/Applied configuration in try mode/);
      expect(await mc()).toContain('keel-e2e: tried');
      await retry(
        'the tried config rolled back',
        async () => expect(await mc()).not.toContain('keel-e2e'),
        120_000,
      );

      // 6. a staged config waits for the next boot; a reboot through the API takes it, and keeps the rest
      const staged = await admin(
        second.port,
        'apply-config',
        '-f',
        join(dir, 'staged.yaml'),
        '--mode',
        'staged',
      );
      works(staged);
      expect(staged.output).toMatch(/Staged configuration to be applied after a reboot/);
      expect(await mc()).not.toContain('keel-e2e');
      const from = second.vm.lines.length;
      works(await admin(second.port, 'reboot', '--wait=false'));
      await second.vm.waitForLine(/Linux version/, { from, timeoutMs: BOOT_MS });
      await second.vm.waitForLine(/node running/, { from, timeoutMs: BOOT_MS });
      const after = await retry('configured after the reboot', () => configuredState(second.port));
      expect(after).toEqual(before);
      expect(await mc()).toContain('keel-e2e: staged');
      expect(works(await admin(second.port, 'read', '/var/e2e-marker'))).toBe(marker);

      // 7. reset wipes STATE and EPHEMERAL: back to maintenance mode, on the installed disk
      const resetFrom = second.vm.lines.length;
      works(await admin(second.port, 'reset', '--wait=false', '--reboot'));
      await second.vm.waitForLine(/Linux version/, { from: resetFrom, timeoutMs: BOOT_MS });
      await second.vm.waitForLine(/apply-config --insecure/, { from: resetFrom, timeoutMs: BOOT_MS });
      await retry('maintenance Version after reset', () => version(second.port, anonymous()));
      const insecure = (...args: string[]) =>
        talosctl(bin, [...args, '--insecure', '-n', `127.0.0.1:${second.port}`], {
          cwd: dir,
          timeoutMs: 120_000,
        });
      // still installed (META and the boot partitions stay), but nothing is kept: STATE waits for a config
      expect(rowOf(works(await insecure('get', 'systemdisk')), 'SystemDisk', 'system-disk')).toMatch(
        /\svda\s*$/,
      );
      const wiped = await retry('STATE missing after reset', async () => {
        const out = works(await insecure('get', 'volumestatus'));
        expect(rowOf(out, 'VolumeStatus', 'STATE')).toMatch(/\smissing\s/);
        return out;
      });
      expect(wiped).not.toMatch(/VolumeStatus\s+EPHEMERAL\s/);
    },
    60 * 60_000,
  );
});
