// What the end-to-end tests need around a VM: the built artefacts, gRPC clients over the forwarded port,
// and retries while the node's API comes and goes (boot, leaving maintenance, reboot). The benches boot
// nodes with them too, outside vitest, whose expect works only in its runner: hence node:assert.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChannelCredentials, type Client, credentials } from '@grpc/grpc-js';
import { startVm, type Vm, type VmOptions } from '../../scripts/lib/qemu.js';
import { type Config, encode, encodeTalosconfig, newTalosconfig } from '../../src/config/index.js';
import { callUnary, type Reply, serviceClient } from '../api/fixtures.js';
import { type Run, talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { type TestCluster, testCluster } from '../machined/node/cluster.js';
import { freePort } from '../machined/node/harness.js';
import type { LanMember } from './lan.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUT = join(ROOT, '_out');

/** artefact is a built image file; the message says how to build it instead of a bare ENOENT. */
export function artefact(name: string): string {
  const p = join(OUT, name);
  if (!existsSync(p)) throw new Error(`${p} is missing: build the images first with \`make image\``);
  return p;
}

const vms: Vm[] = [];
const clients: Client[] = [];
const piped = new Set<ChildProcess>();

/** boot starts a VM that cleanup() kills, whatever the test did. */
export function boot(opts: VmOptions): Vm {
  const vm = startVm(opts);
  vms.push(vm);
  return vm;
}

export async function cleanup(): Promise<void> {
  for (const c of piped) c.kill('SIGKILL');
  piped.clear();
  for (const c of clients.splice(0)) c.close();
  for (const vm of vms.splice(0)) {
    vm.kill();
    await vm.ended;
  }
}

/** anonymous is TLS without a client certificate, trusting anything: what maintenance mode takes. */
export const anonymous = (): ChannelCredentials =>
  credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });

export function client(service: string, port: number, creds: ChannelCredentials): Client {
  const c = serviceClient(service, `127.0.0.1:${port}`, creds);
  clients.push(c);
  return c;
}

/** retry calls until it succeeds: the forwarded port accepts before the node listens behind it. */
export async function retry<T>(what: string, fn: () => Promise<T>, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await fn();
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  throw new Error(`${what}: still failing after ${timeoutMs} ms: ${(last as Error)?.message}`);
}

/** version asks machine.MachineService/Version once, with a deadline. */
export async function version(port: number, creds: ChannelCredentials): Promise<Reply> {
  const m = client('machine.MachineService', port, creds);
  const deadline = new Date(Date.now() + 10_000);
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      (m as unknown as { Version: Function }).Version({}, { deadline }, (err: Error | null, r: Reply) =>
        err ? reject(err) : resolve(r),
      );
    });
    return (reply.messages as Reply[])[0]!;
  } finally {
    // also after a failure: a channel left open keeps reconnecting, and pollers call this every 100 ms,
    // so a booting node would meet dozens of TLS handshakes at once the moment it starts listening
    m.close();
  }
}

export { callUnary };

/** withMachine merges `fields` into the machine section of the config's v1alpha1 document. */
export function withMachine(cfg: Config, fields: Record<string, unknown>): Config {
  return {
    documents: cfg.documents.map((d) => {
      if (d.kind !== 'v1alpha1') return d;
      const spec = d.spec as { machine?: Record<string, unknown> };
      return { ...d, spec: { ...spec, machine: { ...spec.machine, ...fields } } } as typeof d;
    }),
  };
}

/**
 * installing names the install disk and lets time sync give up soon (QEMU's network has no NTP server,
 * and readiness waits for a synced clock or the boot timeout).
 */
export const installing = (cfg: Config, disk: string): Config =>
  withMachine(cfg, { install: { disk }, time: { bootTimeout: '5s' } });

/** works checks a talosctl run succeeded without a wire error and gives its stdout. */
export function works(r: Run): string {
  assert.equal(r.timedOut, false, r.output);
  assert.equal(r.code, 0, r.output);
  assert.doesNotMatch(r.stderr, /rpc error|unmarshal|panic/i, r.output);
  return r.stdout;
}

/** rowOf finds the table row of resource `id` of `type` (the TYPE column just before it). */
export function rowOf(out: string, type: string, id: string): string {
  const line = out.split('\n').find((l) => new RegExp(`\\s${type}\\s+${id}\\s`).test(l));
  assert.ok(line, out);
  return line;
}

/** Talosctl runs the stock talosctl against one node of a VM, as its admin. */
export type Talosctl = (...args: string[]) => Promise<Run>;

/**
 * bootstrap runs `talosctl bootstrap` until the node takes it: until its etcd is configured (the layer
 * mounted, the certificates minted) and its clock counts as synced, a control plane refuses it with
 * FailedPrecondition, which is the node still booting, not a failure.
 */
export async function bootstrap(tc: Talosctl, timeoutMs = 300_000): Promise<void> {
  await retry(
    'talosctl bootstrap',
    async () => {
      const r = await tc('bootstrap');
      assert.equal(r.code, 0, r.output);
    },
    timeoutMs,
  );
}

/**
 * etcdHealthy waits for `talosctl service etcd` to say Running and healthy. On TCG etcd takes its time:
 * its first health check comes 5 s after it starts, the next ones every 20 s.
 */
export const etcdHealthy = (tc: Talosctl, timeoutMs = 300_000): Promise<string> =>
  serviceHealthy(tc, 'etcd', timeoutMs);

/** serviceHealthy waits for `talosctl service <id>` to say Running and healthy. */
export async function serviceHealthy(tc: Talosctl, id: string, timeoutMs = 300_000): Promise<string> {
  return retry(
    `${id} running and healthy`,
    async () => {
      const out = works(await tc('service', id));
      assert.match(out, /^STATE\s+Running$/m);
      assert.match(out, /^HEALTH\s+OK$/m);
      return out;
    },
    timeoutMs,
  );
}

/**
 * importedImage waits for the layer's archive `id` (`toolbox`) to be imported into containerd, as its
 * ImageImportStatus says, and gives the image as `name@digest`.
 */
export async function importedImage(tc: Talosctl, id: string, timeoutMs = 300_000): Promise<string> {
  return retry(
    `ImageImportStatus ${id} imported`,
    async () => {
      const status = JSON.parse(works(await tc('get', 'imageimportstatuses', id, '-o', 'json'))) as {
        spec: { images: string[]; error: string };
      };
      assert.equal(status.spec.error, '');
      assert.equal(status.spec.images.length, 1, status.spec.images.join(' '));
      return status.spec.images[0]!;
    },
    timeoutMs,
  );
}

/** Piped is a talosctl run fed from a pipe: its result, and a way to end it as a vanished client. */
export interface Piped {
  readonly result: Promise<Run>;
  kill(): void;
}

/**
 * pipedTalosctl runs talosctl with `input` on its stdin, then its end: a pipe, so talosctl asks for no
 * terminal (`debug`). Killed at the deadline, and by cleanup().
 */
export function pipedTalosctl(
  bin: string,
  args: readonly string[],
  input: string,
  opts: { readonly talosconfig: string; readonly cwd: string; readonly timeoutMs: number },
): Piped {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: opts.cwd, TALOSCONFIG: opts.talosconfig };
  const child = spawn(bin, args, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  piped.add(child);
  const result = new Promise<Run>((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.once('close', (code) => {
      piped.delete(child);
      clearTimeout(timer);
      const output = `$ talosctl ${args.join(' ')}\n${stdout}\n${stderr}`;
      resolve({ code, stdout, stderr, output, timedOut });
    });
  });
  child.stdin.on('error', () => {}); // a talosctl that failed at once closes its stdin before we write
  child.stdin.end(input);
  return { result, kill: () => child.kill('SIGKILL') };
}

/** Memory is one process's resident set from its /proc status, in MiB. */
export interface Memory {
  readonly rss: number;
  readonly anon: number;
  readonly file: number;
  readonly shmem: number;
}

/** memoryOf reads /proc/<pid>/status through `talosctl read`. */
export async function memoryOf(tc: Talosctl, pid: number): Promise<Memory> {
  const status = works(await tc('read', `/proc/${pid}/status`));
  const kB = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    assert.ok(m, `${field} in /proc/${pid}/status:\n${status}`);
    return Number(m[1]) / 1024;
  };
  return { rss: kB('VmRSS'), anon: kB('RssAnon'), file: kB('RssFile'), shmem: kB('RssShmem') };
}

/** pidsOf finds the PIDs `talosctl processes` lists whose command line starts with `command`. */
export async function pidsOf(tc: Talosctl, command: string): Promise<number[]> {
  const out = works(await tc('processes'));
  // NODE PID STATE THREADS CPU-TIME VIRTMEM RESMEM LABEL COMMAND: the command is the rest of the row
  return out
    .split('\n')
    .map((l) => /^\S+\s+(\d+)\s+\S+\s+\d+\s+.*?\s(\/\S+)/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[2]!.endsWith(`/${command}`))
    .map((m) => Number(m[1]));
}

/** the guest's address on QEMU's user network */
export const GUEST = '10.0.2.15';
const BOOT_MS = 300_000;

/** InstalledNode is a node installed from the ISO and booted from its disk, its config loaded. */
export interface InstalledNode {
  readonly vm: Vm;
  readonly bin: string;
  readonly talosconfig: string;
  /** the config the node took, as installed (apply it again with patches to change it) */
  readonly configFile: string;
  /** the node's address, as talosctl and kubectl reach it (on the user network, through the forwards) */
  readonly address: string;
  /** talosctl against the node, as its admin */
  readonly tc: Talosctl;
  /** talosctl against the node with `input` piped in (`debug`) */
  readonly piped: (input: string, ...args: string[]) => Piped;
  /** the host port each guest port asked for in `forward` is reached on (user network only) */
  readonly forwarded: ReadonlyMap<number, number>;
  /** on a LAN: the command line that runs `argv` where the node is reached (inside the LAN's namespace) */
  readonly via?: (argv: readonly string[]) => string[];
  /** when (ms since the epoch) the live ISO took the config, and the installed disk's QEMU started */
  readonly times: { readonly applied: number; readonly booted: number };
}

/** ControlPlane is an installed control plane that has taken `talosctl bootstrap` and runs. */
export interface ControlPlane extends InstalledNode {
  readonly times: { readonly applied: number; readonly booted: number; readonly bootstrapped: number };
}

export interface NodeOptions {
  /** changes the generated config before the node takes it (features a test turns off) */
  readonly config?: (cfg: Config) => Config;
  /** guest ports of the installed node each forwarded from a free host port (user network only) */
  readonly forward?: readonly number[];
  /** the node on a LAN of several VMs instead of QEMU's user network */
  readonly lan?: { readonly member: LanMember; readonly via: (argv: readonly string[]) => string[] };
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

/** writeTalosconfig writes the admin's talosconfig for `cluster` into `dir` and gives its path. */
export function writeTalosconfig(dir: string, clusterName: string, cluster: TestCluster): string {
  const path = join(dir, 'talosconfig');
  const ctx = newTalosconfig({
    clusterName,
    osCACrt: cluster.bundle.certs.os.crt,
    admin: { crt: b64(cluster.admin.crt), key: b64(cluster.admin.key) },
    endpoints: [],
  });
  writeFileSync(path, encodeTalosconfig(ctx));
  return path;
}

/** through runs `bin` as `via` says: [program, ...arguments before the caller's]. */
const through = (bin: string, via?: (argv: readonly string[]) => string[]): [string, string[]] => {
  const [program, ...pre] = via ? via([bin]) : [bin];
  return [program!, pre];
};

/** InstalledDisk is a disk a node installed itself on; `boot` starts the VM from it, once. */
export interface InstalledDisk {
  boot(): Promise<InstalledNode>;
}

/**
 * installedNode: the ISO boots beside a blank disk (in `dir`) and takes `cfg` in maintenance mode, installs
 * itself (the components layer goes to the disk beside the UKI) and reboots, which ends that QEMU; then
 * the disk alone boots and loads the config from its STATE partition. cleanup() ends the VMs.
 */
export async function installedNode(
  dir: string,
  cfg: Config,
  talosconfig: string,
  opts: NodeOptions = {},
): Promise<InstalledNode> {
  return (await installedDisk(dir, cfg, talosconfig, opts)).boot();
}

/**
 * installedDisk is installedNode's first half: the ISO installs the node on its disk and powers off. A
 * test of several VMs installs them all at once and boots each when its turn comes, so that a booting
 * node does not take the emulated CPU another one's steps wait on.
 */
export async function installedDisk(
  dir: string,
  cfg: Config,
  talosconfig: string,
  opts: NodeOptions = {},
): Promise<InstalledDisk> {
  const bin = talosctlPath();
  const lan = opts.lan;
  const configFile = join(dir, 'config.yaml');
  // no network here reaches a time server: the clock counts as synced once the boot timeout passes
  writeFileSync(configFile, encode(installing(opts.config ? opts.config(cfg) : cfg, '/dev/vda')));
  const disk = join(dir, 'disk.raw');
  writeFileSync(disk, '');
  truncateSync(disk, 6 * 2 ** 30);
  const network = lan
    ? {
        network: { kind: 'tap', netns: lan.member.netns, ifname: lan.member.ifname } as const,
        mac: lan.member.mac,
      }
    : {};
  const [program, pre] = through(bin, lan?.via);
  const address = lan ? lan.member.address : GUEST;

  const isoPort = lan ? undefined : await freePort();
  const live = boot({
    boot: { kind: 'iso', path: artefact('keel.iso') },
    firmware: 'uefi',
    ...(isoPort === undefined ? {} : { apiPort: isoPort }),
    ...network,
    dataDisk: disk,
    noReboot: true,
  });
  await live.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
  const apply = () =>
    talosctl(
      program,
      [
        ...pre,
        'apply-config',
        '--insecure',
        '-n',
        isoPort ? `127.0.0.1:${isoPort}` : address,
        '-f',
        configFile,
      ],
      { cwd: dir, timeoutMs: 120_000 },
    );
  if (isoPort !== undefined) {
    await retry('maintenance Version', () => version(isoPort, anonymous()));
    works(await apply());
  } else {
    // the host cannot dial into the LAN's namespace: the first apply-config that connects is the probe
    await retry('apply-config in maintenance mode', async () => works(await apply()));
  }
  const applied = Date.now();
  await live.waitForLine(/installed onto \/dev\/vda: EFI/, { timeoutMs: 10 * 60_000 });
  await live.ended;
  return { boot: () => bootDisk() };

  async function bootDisk(): Promise<InstalledNode> {
    const port = lan ? undefined : await freePort();
    const forwarded = new Map<number, number>();
    if (!lan) for (const guest of opts.forward ?? []) forwarded.set(guest, await freePort());
    const booted = Date.now();
    const vm = boot({
      boot: { kind: 'disk', path: disk, persistent: true },
      firmware: 'uefi',
      ...(port === undefined ? {} : { apiPort: port }),
      ...network,
      forwards: [...forwarded].map(([guest, host]) => ({ host, guest })),
    });
    await vm.waitForLine(/config: loaded from STATE/, { timeoutMs: BOOT_MS });
    const target = ['-e', port === undefined ? address : `127.0.0.1:${port}`, '-n', address];
    const tc: Talosctl = (...args) =>
      talosctl(program, [...pre, ...target, ...args], { talosconfig, cwd: dir, timeoutMs: 120_000 });
    const piped = (input: string, ...args: string[]) =>
      pipedTalosctl(program, [...pre, ...target, ...args], input, {
        talosconfig,
        cwd: dir,
        timeoutMs: 240_000,
      });
    return {
      vm,
      bin,
      talosconfig,
      configFile,
      address,
      tc,
      piped,
      forwarded,
      ...(lan ? { via: lan.via } : {}),
      times: { applied, booted },
    };
  }
}

/** bootstrapped takes an installed control plane through `talosctl bootstrap` until its boot is done. */
export async function bootstrapped(node: InstalledNode): Promise<ControlPlane> {
  await bootstrap(node.tc);
  const at = Date.now();
  await node.vm.waitForLine(/node running/, { timeoutMs: BOOT_MS });
  return { ...node, times: { ...node.times, bootstrapped: at } };
}

/**
 * installedControlPlane: a cluster of one control plane on QEMU's user network, installed from the ISO
 * (in `dir`), bootstrapped and running.
 */
export async function installedControlPlane(
  dir: string,
  clusterName: string,
  opts: Omit<NodeOptions, 'lan'> = {},
): Promise<ControlPlane> {
  const cluster = await testCluster(clusterName, `https://${GUEST}:6443`);
  const talosconfig = writeTalosconfig(dir, clusterName, cluster);
  return bootstrapped(await installedNode(dir, cluster.controlplane, talosconfig, opts));
}
