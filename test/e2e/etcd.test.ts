// A control plane made from the image runs etcd from the components layer (issue 31's acceptance), driven
// only by the stock talosctl: the ISO boots beside a blank disk and takes a generated control-plane config
// in maintenance mode, installs itself (the layer goes to the disk beside the UKI) and reboots; from the
// disk alone, `talosctl bootstrap`, then etcd Running and healthy, one member, its status, EtcdMembers,
// the node ready. (etcd and containerd keep their data in /var, which only an installed node has: a live
// boot from the ISO runs neither.) One VM serves every step (each an `it`, in order): a step that needs
// the bootstrapped node is added as one more `it`.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode, encodeTalosconfig, newTalosconfig } from '../../src/config/index.js';
import { talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { testCluster } from '../machined/node/cluster.js';
import { freePort } from '../machined/node/harness.js';
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
  type Talosctl,
  version,
  works,
} from './node.js';

const BOOT_MS = 300_000;
const GUEST = '10.0.2.15';

let dir: string;
let tc: Talosctl;

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-etcd-'));
  const bin = talosctlPath();
  const cluster = await testCluster('keel-etcd', `https://${GUEST}:6443`);
  // QEMU's user network reaches no time server: the clock counts as synced once the boot timeout passes
  writeFileSync(join(dir, 'controlplane.yaml'), encode(installing(cluster.controlplane, '/dev/vda')));
  const talosconfig = newTalosconfig({
    clusterName: 'keel-etcd',
    osCACrt: cluster.bundle.certs.os.crt,
    admin: { crt: b64(cluster.admin.crt), key: b64(cluster.admin.key) },
    endpoints: [],
  });
  writeFileSync(join(dir, 'talosconfig'), encodeTalosconfig(talosconfig));

  const disk = join(dir, 'disk.raw');
  writeFileSync(disk, '');
  truncateSync(disk, 6 * 2 ** 30);
  // the ISO beside the blank disk; the reboot after the install ends this QEMU
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
  await live.ended;

  const port = await freePort();
  const vm = boot({ boot: { kind: 'disk', path: disk, persistent: true }, firmware: 'uefi', apiPort: port });
  await vm.waitForLine(/config: loaded from STATE/, { timeoutMs: BOOT_MS });
  tc = (...args) =>
    talosctl(bin, ['-e', `127.0.0.1:${port}`, '-n', GUEST, ...args], {
      talosconfig: join(dir, 'talosconfig'),
      cwd: dir,
      timeoutMs: 120_000,
    });
  // until bootstrapped, etcd waits, and with it the boot sequence
  await bootstrap(tc);
  await vm.waitForLine(/node running/, { timeoutMs: BOOT_MS });
}, 20 * 60_000);

afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('a control plane installed from the ISO, bootstrapped through the API', () => {
  it(
    'runs etcd from the components layer installed beside the UKI, Running and healthy',
    async () => {
      await etcdHealthy(tc);
      const layer = works(await tc('get', 'componentslayers', 'components', '-o', 'yaml'));
      expect(layer).toMatch(/root: \/run\/keel\/components/);
      expect(layer).toMatch(/source: \/dev\/vda1:\/keel\/components-v[^/\s]+\.sqsh/);
      expect(layer).toMatch(/etcd v3\.6\.\d+ /);
    },
    6 * 60_000,
  );

  it(
    'lists one member with `talosctl etcd members`, and its status',
    async () => {
      const members = works(await tc('etcd', 'members'))
        .trim()
        .split('\n');
      expect(members[0]).toMatch(/^NODE\s+ID\s+HOSTNAME\s+PEER URLS\s+CLIENT URLS\s+LEARNER/);
      expect(members.slice(1), members.join('\n')).toHaveLength(1);
      expect(members[1]).toMatch(
        new RegExp(
          `^${GUEST}\\s+[0-9a-f]+\\s+talos-\\S+\\s+https://${GUEST}:2380\\s+https://${GUEST}:2379\\s+false`,
        ),
      );
      const status = works(await tc('etcd', 'status'));
      expect(status).toMatch(/MEMBER\s+DB SIZE/);
      expect(status).toContain(GUEST);
    },
    4 * 60_000,
  );

  it(
    "publishes the local member as EtcdMembers, upstream's resource",
    async () => {
      const out = works(await tc('get', 'etcdmembers'));
      expect(rowOf(out, 'EtcdMember', 'local')).toMatch(/\s[0-9a-f]+\s*$/);
    },
    2 * 60_000,
  );

  it(
    'is ready: every service a spec asks for runs and is healthy',
    async () => {
      await retry(
        'MachineStatus running and ready',
        async () => {
          const status = works(await tc('get', 'machinestatus', '-o', 'yaml'));
          expect(status).toMatch(/stage: running/);
          expect(status).toMatch(/ready: true/);
        },
        180_000,
      );
      const services = works(await tc('services'));
      const row = (id: string) => new RegExp(`${GUEST.replaceAll('.', '\\.')}\\s+${id}\\s+Running\\s+(\\S+)`);
      for (const id of ['apid', 'containerd', 'etcd', 'machined', 'udevd']) expect(services).toMatch(row(id));
      // the two the layer runs have health checks, and pass them
      for (const id of ['containerd', 'etcd']) expect(row(id).exec(services)?.[1], services).toBe('OK');
    },
    4 * 60_000,
  );
});
