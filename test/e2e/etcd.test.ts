// A control plane made from the image runs etcd and containerd from the components layer (issue 31's
// acceptance), driven only by the stock talosctl: the ISO boots beside a blank disk and takes a generated
// control-plane config in maintenance mode, installs itself (the layer goes to the disk beside the UKI) and
// reboots; from the disk alone, `talosctl bootstrap`, then etcd Running and healthy, one member, its
// status, EtcdMembers, the node ready; containerd's containers and images, and a debug shell run from the
// toolbox image the node ships (no registry: the VM's network leads to none, and nothing is pulled); PID 1's
// memory with both running, logged. One VM serves every step (each an `it`, in order): a step that needs
// the bootstrapped node is added as one more `it`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ControlPlane,
  cleanup,
  etcdHealthy,
  GUEST,
  importedImage,
  installedControlPlane,
  memoryOf,
  pidsOf,
  retry,
  rowOf,
  serviceHealthy,
  type Talosctl,
  works,
} from './node.js';

let dir: string;
let node: ControlPlane;
let tc: Talosctl;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-etcd-'));
  node = await installedControlPlane(dir, 'keel-etcd');
  tc = node.tc;
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

  // the shipped toolbox as the node imported it (name@digest), and the system namespace's image rows
  let toolbox = '';
  let images: string[] = [];
  /** imageRows: `talosctl image list` rows as `name digest`, sorted, to compare before and after */
  const imageRows = (out: string) =>
    out
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(/\s+/).slice(1, 3).join(' '))
      .sort();

  it(
    'imports the toolbox image shipped in the node into containerd; `talosctl image list` shows it',
    async () => {
      await serviceHealthy(tc, 'containerd');
      toolbox = await importedImage(tc, 'toolbox');
      expect(toolbox).toMatch(/^keel\.dev\/toolbox:\S+@sha256:[0-9a-f]{64}$/);
      const [name, digest] = toolbox.split('@') as [string, string];
      const list = works(await tc('image', 'list', '--namespace', 'system'));
      expect(list).toMatch(/^NODE\s+IMAGE\s+DIGEST\s+SIZE\s+LABELS\s+CREATED\n/);
      images = imageRows(list);
      expect(images).toContain(`${name} ${digest}`);
      // imported into the CRI's namespace too, for Kubernetes
      expect(imageRows(works(await tc('image', 'list', '--namespace', 'cri')))).toContain(
        `${name} ${digest}`,
      );
    },
    // the toolbox is imported after pause and the control plane's images: about 220 s under TCG
    10 * 60_000,
  );

  const containersHeader = /^NODE\s+NAMESPACE\s+ID\s+IMAGE\s+PID\s+STATUS$/;

  it(
    '`talosctl containers` lists a running debug container in system, then none once its client is gone',
    async () => {
      const name = toolbox.split('@')[0]!;
      expect(works(await tc('containers')).trim()).toMatch(containersHeader);
      // a shell that outlives the listing; killing the client takes its container along
      const session = node.piped('sleep 600\n', 'debug', name, '--namespace', 'system', '--args', '/bin/sh');
      try {
        const row = new RegExp(
          `^${GUEST.replaceAll('.', '\\.')}\\s+system\\s+debug-[0-9a-f]{16}\\s+${name.replaceAll('.', '\\.')}\\s+\\d+\\s+RUNNING$`,
          'm',
        );
        await retry('the debug container listed', async () =>
          expect(works(await tc('containers'))).toMatch(row),
        );
      } finally {
        session.kill();
      }
      await session.result;
      await retry('the debug container removed', async () =>
        expect(works(await tc('containers')).trim()).toMatch(containersHeader),
      );
    },
    6 * 60_000,
  );

  it(
    '`talosctl containers -k` answers from the CRI: its header, then only k8s.io’s rows (the static pods)',
    async () => {
      const [header, ...rows] = works(await tc('containers', '-k'))
        .trim()
        .split('\n');
      expect(header).toMatch(containersHeader);
      // the kubelet runs the control plane's static pods there once their images are in
      for (const row of rows) expect(row).toMatch(/^\S+\s+k8s\.io\s/);
    },
    2 * 60_000,
  );

  it(
    '`talosctl debug` runs a shell from the shipped toolbox: its output, its exit code, nothing pulled',
    async () => {
      const name = toolbox.split('@')[0]!;
      const host = JSON.parse(works(await tc('get', 'hostname', '-o', 'json'))) as {
        spec: { hostname: string };
      };
      const r = await node.piped(
        'echo hello from $(hostname); cat /host/etc/os-release | head -1; exit 3\n',
        'debug',
        name,
        '--namespace',
        'system',
        '--args',
        '/bin/sh',
      ).result;
      expect(r.timedOut, r.output).toBe(false);
      // the container shares the host's network and its hostname; / is the node's at /host
      expect(r.stdout, r.output).toContain(`hello from ${host.spec.hostname}\nNAME="Keel"\n`);
      expect(r.code, r.output).not.toBe(0);
      expect(r.stderr, r.output).toContain('container exited with code 3');
      // Pull was answered from the node's images: the same images, the same digests
      expect(imageRows(works(await tc('image', 'list', '--namespace', 'system')))).toEqual(images);
      const missing = await node.piped('', 'debug', 'keel.dev/nope:v1', '--namespace', 'system').result;
      expect(missing.code, missing.output).not.toBe(0);
      expect(missing.output).toContain('code = NotFound');
      expect(missing.output).toContain('Keel pulls no images at run time');
    },
    6 * 60_000,
  );

  it(
    "PID 1's resident memory with etcd and containerd running (logged, not a target here)",
    async () => {
      const [etcd] = await pidsOf(tc, 'etcd');
      const [containerd] = await pidsOf(tc, 'containerd');
      expect(etcd, 'etcd in `talosctl processes`').toBeGreaterThan(1);
      expect(containerd, 'containerd in `talosctl processes`').toBeGreaterThan(1);
      expect(await pidsOf(tc, 'init')).toContain(1);
      const mib = (m: { rss: number; anon: number; file: number }) =>
        `${m.rss.toFixed(1)} MiB (anonymous ${m.anon.toFixed(1)}, file ${m.file.toFixed(1)})`;
      const pid1 = await memoryOf(tc, 1);
      expect(pid1.rss).toBeGreaterThan(0);
      console.log(
        `VmRSS: PID 1 ${mib(pid1)}; etcd ${mib(await memoryOf(tc, etcd!))}; containerd ${mib(await memoryOf(tc, containerd!))}`,
      );
    },
    2 * 60_000,
  );
});
