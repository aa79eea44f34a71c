// Acceptance of the image: the ISO boots in QEMU (TCG) into maintenance mode, takes a generated config over
// TLS without a client certificate, runs its services, restarts one killed inside the VM, streams logs and
// the kernel log, reboots with a new boot id and powers the VM off — driven only through the API. The UKI
// boots once under UEFI firmware from the raw disk image.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelCredentials } from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translatedBlocks } from '../../scripts/lib/qemu.js';
import { wireTag } from '../../src/api/version.js';
import { type Config, encode, encodeTalosconfig, newTalosconfig } from '../../src/config/index.js';
import { callStream, type Reply } from '../api/fixtures.js';
import { keelctl } from '../cli/fixtures.js';
import { type Run, talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { testCluster } from '../machined/node/cluster.js';
import { freePort } from '../machined/node/harness.js';
import {
  anonymous,
  artefact,
  boot,
  callUnary,
  cleanup,
  client,
  ROOT,
  retry,
  version,
  withMachine,
} from './node.js';

const BOOT_MS = 300_000;
const PACKAGE_VERSION = `v${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}`;

let controlplane: Config;
let admin: () => ChannelCredentials;
let bin: string;
let dir: string;
let cluster: Awaited<ReturnType<typeof testCluster>>;

beforeAll(async () => {
  // 10.0.2.15 is the address QEMU's user network hands the guest
  cluster = await testCluster('keel-e2e', 'https://10.0.2.15:6443');
  // QEMU's user network reaches no time server: as on any air-gapped node, the clock counts as synced
  // once the boot timeout passes (upstream's semantics), so readiness does not wait forever
  controlplane = withTimeBootTimeout(cluster.controlplane, '5s');
  admin = cluster.adminCreds;
  bin = talosctlPath();
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-'));
  writeFileSync(join(dir, 'controlplane.yaml'), encode(controlplane));
}, 30 * 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** withTimeBootTimeout sets machine.time.bootTimeout in the config's v1alpha1 document. */
const withTimeBootTimeout = (cfg: Config, timeout: string): Config =>
  withMachine(cfg, { time: { bootTimeout: timeout } });

/** talosconfigFor is the talosconfig a user of this VM has: the forwarded port as endpoint, the guest as node. */
function talosconfigFor(port: number): string {
  const file = join(dir, `talosconfig-${port}`);
  const cfg = newTalosconfig({
    clusterName: 'keel-e2e',
    osCACrt: cluster.bundle.certs.os.crt,
    admin: { crt: b64(cluster.admin.crt), key: b64(cluster.admin.key) },
    endpoints: [`127.0.0.1:${port}`],
  });
  cfg.contexts['keel-e2e']!.nodes = ['10.0.2.15'];
  writeFileSync(file, encodeTalosconfig(cfg));
  return file;
}

/** works: the stock talosctl ran to its end with exit 0 and no sign of a decode or transport failure. */
function works(r: Run): string {
  expect(r.timedOut, r.output).toBe(false);
  expect(r.code, r.output).toBe(0);
  expect(r.stderr, r.output).not.toMatch(/older than client|rpc error|unmarshal|panic/i);
  return r.stdout;
}

afterEach(cleanup);

const spec = (r: Reply) => String(((r.resource as Reply).spec as Reply).yaml_spec);

async function getResource(port: number, creds: ChannelCredentials, type: string, id: string) {
  const cosi = client('cosi.resource.State', port, creds);
  return spec(await callUnary(cosi, 'Get', { namespace: 'runtime', type, id }));
}

async function applyConfig(port: number) {
  const m = client('machine.MachineService', port, anonymous());
  const reply = await callUnary(m, 'ApplyConfiguration', {
    data: Buffer.from(encode(controlplane)),
    mode: 'AUTO',
  });
  return (reply.messages as Reply[])[0]!;
}

async function serviceStates(port: number) {
  const m = client('machine.MachineService', port, admin());
  const reply = await callUnary(m, 'ServiceList', {});
  const list = (reply.messages as Reply[])[0]!.services as Reply[];
  return new Map(list.map((s) => [String(s.id), s]));
}

/** udevdRuns counts how often udevd reached Running, from the service's own event history. */
async function udevdRuns(port: number): Promise<number> {
  const services = await serviceStates(port);
  const events = ((services.get('udevd')?.events as Reply)?.events as Reply[]) ?? [];
  return events.filter((e) => e.state === 'Running').length;
}

describe('the Keel ISO in QEMU', () => {
  it(
    'boots to maintenance, runs once configured, restarts a killed service, reboots and powers off',
    async () => {
      const port = await freePort();
      const vm = boot({ boot: { kind: 'iso', path: artefact('keel.iso') }, apiPort: port });

      // maintenance mode says on the console how to apply a config, and answers without a client cert
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      const v = await retry('maintenance Version', () => version(port, anonymous()));
      expect((v.version as Reply).tag).toBe(wireTag(PACKAGE_VERSION));
      // the lease is recorded in the kernel log, and the console names the address to apply a config to
      await vm.waitForLine(/\[\s*\d+\.\d+\] \[keel\] node addresses: 10\.0\.2\.15\/24/, {
        timeoutMs: 60_000,
      });
      await vm.waitForLine(/\[keel\] apply a config: keelctl apply-config --insecure --nodes 10\.0\.2\.15 /, {
        timeoutMs: 60_000,
      });
      // the executable's trained code cache was accepted by the node's V8 (else boot takes seconds longer)
      expect(vm.lines.join('\n')).not.toMatch(/code cache rejected/);
      // the guest keeps its clock on the TSC (read in user space), not the emulated HPET (scripts/lib/qemu.ts)
      expect(vm.lines.join('\n')).toMatch(/clocksource: Switched to clocksource tsc/);
      expect(vm.lines.join('\n')).not.toMatch(/Marking TSC unstable/);
      // the CPU is described without AVX (scripts/lib/qemu.ts): the kernel enables no AVX state
      expect(vm.lines.join('\n')).not.toMatch(/'AVX registers'/);
      // the monitor answers the boot benchmark's question: how much guest code was translated by now
      expect(translatedBlocks(await vm.monitor('info jit'))).toBeGreaterThan(100_000);
      const firstBootId = await getResource(port, anonymous(), 'BootIDs.runtime.talos.dev', 'boot-id').catch(
        () => undefined,
      );

      await applyConfig(port);
      // the stock talosctl, as a user of this VM drives it: endpoint the forwarded port, node the guest
      const talosconfig = talosconfigFor(port);
      const tc = (...args: string[]) => talosctl(bin, args, { talosconfig, cwd: dir, timeoutMs: 120_000 });
      await vm.waitForLine(/node running/, { timeoutMs: BOOT_MS });
      // a live node (nothing installed) keeps /var in memory: containerd runs from the components layer, and
      // the node is running but not ready until etcd is bootstrapped (test/e2e/kubernetes.test.ts does that)
      await retry('MachineStatus running, waiting on etcd', async () => {
        const status = await getResource(port, admin(), 'MachineStatuses.runtime.talos.dev', 'machine');
        expect(status).toMatch(/stage: running/);
        expect(status).toMatch(/ready: false/);
        expect(status).toMatch(/name: services\n\s+reason: .*etcd not running/);
      });
      const bootId = await getResource(port, admin(), 'BootIDs.runtime.talos.dev', 'boot-id');
      if (firstBootId !== undefined) expect(bootId).toBe(firstBootId);

      const services = await serviceStates(port);
      expect(services.get('apid')).toMatchObject({ state: 'Running' });
      expect(services.get('udevd')).toMatchObject({ state: 'Running' });
      await retry('containerd running on the in-memory /var', async () =>
        expect((await serviceStates(port)).get('containerd')).toMatchObject({ state: 'Running' }),
      );

      expect(works(await tc('version'))).toMatch(/Server:\n\tNODE:\s+10\.0\.2\.15\n\tTag:\s+v1\.13\.0\+keel/);
      // the network is Keel's own: QEMU's DHCP server answered Keel's client (the kernel has no ip=)
      const row = (out: string, type: string, id: string) => {
        const line = out
          .split('\n')
          .find((l) => new RegExp(`^10\\.0\\.2\\.15\\s+\\S+\\s+${type}\\s+${id}\\s`).test(l));
        expect(line, out).toBeDefined();
        return line!;
      };
      // the same tables from talosctl and from keelctl, in talosctl's columns
      const tables: [string, RegExp, [string, string, RegExp][]][] = [
        [
          'links',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+ALIAS\s+TYPE\s+KIND\s+HW ADDR\s+OPER STATE\s+LINK STATE\n/,
          [
            ['LinkStatus', 'eth0', /\sether\s+52:54:00:12:34:56\s+up\s+true\s*$/],
            ['LinkStatus', 'lo', /\sloopback\s/],
          ],
        ],
        [
          'addresses',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+ADDRESS\s+LINK\n/,
          [['AddressStatus', 'eth0/10\\.0\\.2\\.15/24', /\s10\.0\.2\.15\/24\s+eth0\s*$/]],
        ],
        [
          'routes',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+DESTINATION\s+GATEWAY\s+LINK\s+METRIC\n/,
          [['RouteStatus', 'inet4/10\\.0\\.2\\.2//1024', /\s10\.0\.2\.2\s+eth0\s+1024\s*$/]],
        ],
        [
          'resolvers',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+RESOLVERS\s+SEARCH DOMAINS\n/,
          [['ResolverStatus', 'resolvers', /\["10\.0\.2\.3"\]/]],
        ],
        [
          'nodeaddresses',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+ADDRESSES\s+SORTALGORITHM\n/,
          [
            // the first address the node had, kept while it lasts: the lease, or the SLAAC one if it came first
            ['NodeAddress', 'default', /\["(10\.0\.2\.15\/24|fec0::[0-9a-f:]+\/64)"\]\s+v1\s*$/],
            // QEMU's router advertisements add an IPv6 address (SLAAC) beside the lease
            ['NodeAddress', 'accumulative-no-k8s', /"10\.0\.2\.15\/24"/],
          ],
        ],
        [
          'timeservers',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+TIMESERVERS\n/,
          [['TimeServerStatus', 'timeservers', /\["time\.cloudflare\.com"\]/]],
        ],
        [
          'hostname',
          /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+HOSTNAME\s+DOMAINNAME\n/,
          // the generated config asks for a stable name: talos-xxx-yyy from the machine's identity
          [['HostnameStatus', 'hostname', /\stalos-[0-9a-z]{3}-[0-9a-z]{3}\s*$/]],
        ],
      ];
      for (const [what, header, rows] of tables) {
        const fromTalosctl = works(await tc('get', what));
        const k = await keelctl(['get', what], { TALOSCONFIG: talosconfig }).exited;
        expect(k.code, k.stderr).toBe(0);
        for (const out of [fromTalosctl, k.stdout]) {
          expect(out, what).toMatch(header);
          for (const [type, id, cells] of rows) expect(row(out, type, id)).toMatch(cells);
        }
      }
      expect(works(await tc('read', '/etc/resolv.conf'))).toBe('nameserver 10.0.2.3\n');
      const list = works(await tc('services'));
      for (const id of ['apid', 'machined', 'udevd'])
        expect(list).toMatch(new RegExp(`10\\.0\\.2\\.15\\s+${id}\\s+Running`));
      // a cgroup v2 tree read through Copy: every value of the cpu preset is a value
      // (talosctl warns on stderr that it cannot name the containers' cgroups: Containers is not there yet)
      const cg = await tc('cgroups', '--preset', 'cpu');
      expect(cg.code, cg.output).toBe(0);
      const cgroups = cg.stdout;
      expect(cgroups).toMatch(/^NAME\s+CpuWeight/);
      expect(cgroups).not.toContain('%!');
      expect(works(await tc('get', 'mc', '-o', 'yaml'))).toMatch(/\nspec: \|\n {4}version: v1alpha1\n/);
      expect(works(await tc('ls', '-l', '/'))).toMatch(
        /^NODE\s+MODE\s+UID\s+GID\s+SIZE\(B\)\s+LASTMOD\s+LABEL\s+NAME/,
      );
      expect(works(await tc('dmesg'))).toContain('[keel] [initramfs] exec /sbin/init');

      const machine = client('machine.MachineService', port, admin());
      const logs = await callStream(machine, 'Logs', {
        namespace: 'system',
        id: 'machined',
        tail_lines: 200,
      });
      expect(Buffer.concat(logs.map((d) => d.bytes as Buffer)).toString()).toContain('node running');
      const dmesg = await callStream(machine, 'Dmesg', { follow: false, tail: false });
      const kernel = Buffer.concat(dmesg.map((d) => d.bytes as Buffer)).toString();
      expect(kernel).toContain('[keel] [initramfs] exec /sbin/init');
      // PID 1 runs with stage 1's preload (src/init/prefault.c) and keeps it from its children (its own
      // /proc/1/environ still shows the block the kernel was given)
      const read = async (path: string) =>
        Buffer.concat((await callStream(machine, 'Read', { path })).map((d) => d.bytes as Buffer)).toString();
      expect(await read('/proc/1/maps')).toContain('/usr/lib/keel/prefault.so');
      const listed = (await callUnary(machine, 'Processes', {})).messages as Reply[];
      const children = ((listed[0]?.processes as Reply[]) ?? [])
        .filter((p) => p.ppid === 1)
        .map((p) => String(p.pid));
      expect(children.length).toBeGreaterThan(0); // udevd at least
      for (const pid of children)
        expect(await read(`/proc/${pid}/environ`), pid).not.toMatch(/LD_PRELOAD|GLIBC_TUNABLES/);

      // the console takes keys but has nothing to give them to: no shell, no login, no prompt
      const before = vm.lines.length;
      vm.type('\n\nid\n');
      await new Promise((r) => setTimeout(r, 2_000));
      const after = vm.lines.slice(before).join('\n');
      expect(after).not.toMatch(/login:|[#$] *$|uid=/m);
      expect(vm.lines.join('\n')).not.toMatch(/^(?:[\w@.-]+:[^\s]*)?[#$] *$/m);

      // SysRq-i from the console kills every process but PID 1: udevd goes down and is started again
      const runs = await udevdRuns(port);
      await vm.monitor('sendkey alt-sysrq-i');
      await vm.waitForLine(/sysrq: Kill All Tasks/i, { timeoutMs: 60_000 });
      await retry(
        'udevd started again',
        async () => expect(await udevdRuns(port)).toBeGreaterThan(runs),
        120_000,
      );
      await retry('udevd running', async () =>
        expect((await serviceStates(port)).get('udevd')).toMatchObject({ state: 'Running' }),
      );

      // reboot through the API: the kernel starts again and the node has a new boot id
      const rebootFrom = vm.lines.length;
      await callUnary(client('machine.MachineService', port, admin()), 'Reboot', {});
      await vm.waitForLine(/Linux version/, { from: rebootFrom, timeoutMs: BOOT_MS });
      await vm.waitForLine(/apply-config --insecure/, { from: rebootFrom, timeoutMs: BOOT_MS });
      // the config lived in memory: the node is back in maintenance mode until installs exist; the stock
      // talosctl sends it this time
      await retry('Version after reboot', () => version(port, anonymous()));
      const applied = await talosctl(
        bin,
        ['apply-config', '--insecure', '-n', `127.0.0.1:${port}`, '-f', join(dir, 'controlplane.yaml')],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(applied.code, applied.output).toBe(0);
      await vm.waitForLine(/node running/, { from: rebootFrom, timeoutMs: BOOT_MS });
      const newBootId = await retry('boot id after reboot', () =>
        getResource(port, admin(), 'BootIDs.runtime.talos.dev', 'boot-id'),
      );
      expect(newBootId).not.toBe(bootId);

      // talosctl shutdown (waiting, by default) ends, and the VM powers off: QEMU exits by itself
      const shutdown = await talosctl(bin, ['shutdown'], {
        talosconfig: talosconfigFor(port),
        cwd: dir,
        timeoutMs: 180_000,
      });
      expect(shutdown.code, shutdown.output).toBe(0);
      const ended = await Promise.race([
        vm.ended,
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 180_000)),
      ]);
      expect(ended).toEqual({ code: 0, signal: null });
      expect(vm.lines.join('\n')).toMatch(/reboot: Power down/);
    },
    30 * 60_000,
  );

  it(
    'boots the UKI under UEFI firmware from the raw disk image',
    async () => {
      const port = await freePort();
      const vm = boot({
        boot: { kind: 'disk', path: artefact('keel.raw') },
        firmware: 'uefi',
        apiPort: port,
      });
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      const v = await retry('maintenance Version', () => version(port, anonymous()));
      expect((v.version as Reply).tag).toBe(wireTag(PACKAGE_VERSION));
      // systemd-stub handed the UKI's own command line to the kernel
      expect(vm.lines.join('\n')).toMatch(/Command line:.*printk\.devkmsg=on/);
    },
    15 * 60_000,
  );
});
