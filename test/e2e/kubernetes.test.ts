// A cluster made from the image (issues 31 and 32), driven by the stock talosctl and kubectl: two VMs on
// a LAN of their own (a bridge in a network namespace, DHCP with fixed addresses, no route out: no
// registry), both installed from the ISO at once, one with a generated control-plane config and one with
// the same cluster's worker config. The control plane boots from its disk and takes `talosctl bootstrap`;
// then, in order: etcd and containerd from the components layer (members, status, images, a debug shell
// from the shipped toolbox, PID 1's memory); the kubelet, the three static pods, the layer's images in the
// CRI's namespace, the API server through the admin kubeconfig, the bootstrap manifests, the node Ready
// with flannel and kube-proxy, CoreDNS resolving `kubernetes.default` for a pod of the toolbox; a flag the
// API server rejects named by its StaticPodStatus, and a changed extraArgs restarting only the API
// server's static pod. Only then does the worker boot from its disk (two emulated guests at once on a
// small host starve each other: the control plane's steps missed their waits while the worker booted
// beside it): its API answers with the certificate trustd issued it, its kubelet joins through TLS
// bootstrap and its node becomes Ready; a pod on it reaches a pod on the control plane across flannel;
// `talosctl health` passes over both. Every step is an `it`, in order; the milestones' times since the
// control plane's disk booted are logged at the end.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPatches, loadPatch } from '../../src/config/patch/index.js';
import { testCluster } from '../machined/node/cluster.js';
import { API_SERVER_PORT, adminKubectl, type Kubectl, nodeReady } from './kubectl.js';
import { lan } from './lan.js';
import {
  bootstrapped,
  type ControlPlane,
  cleanup,
  etcdHealthy,
  type InstalledDisk,
  type InstalledNode,
  importedImage,
  installedDisk,
  memoryOf,
  pidsOf,
  retry,
  rowOf,
  serviceHealthy,
  type Talosctl,
  works,
  writeTalosconfig,
} from './node.js';

const CLUSTER = 'keel-k8s';
// made while the file is collected: the LAN's namespace, and its DHCP server, go after the file
const net = lan(2);
const dhcp = await net.serve();
const [cpMember, workerMember] = net.members as [(typeof net.members)[0], (typeof net.members)[0]];

let dir: string;
let cp: ControlPlane;
/** the worker, installed at the start and booted once the control plane's own steps are done */
let workerDisk: InstalledDisk;
let worker: InstalledNode;
let tc: Talosctl;
/** ms since the control plane's disk booted, per milestone, logged at the end */
const times: Record<string, number> = {};
const mark = (what: string) => {
  times[what] = Date.now() - cp.times.booted;
};
/** the address as a regular expression */
const quoted = (address: string) => address.replaceAll('.', '\\.');

/**
 * leader election off: with one replica of each there is nothing to elect, and a lease renewal that
 * misses its deadline on an overloaded TCG host would restart the component for nothing
 */
const noLeaderElection = {
  cluster: {
    controllerManager: { extraArgs: { 'leader-elect': 'false' } },
    scheduler: { extraArgs: { 'leader-elect': 'false' } },
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-k8s-'));
  const cluster = await testCluster(CLUSTER, `https://${cpMember.address}:${API_SERVER_PORT}`);
  const talosconfig = writeTalosconfig(dir, CLUSTER, cluster);
  const home = (name: string) => {
    const d = join(dir, name);
    mkdirSync(d);
    return d;
  };
  const [c, w] = await Promise.all([
    installedDisk(home('controlplane'), cluster.controlplane, talosconfig, {
      lan: { member: cpMember, via: net.via },
      config: (cfg) => applyPatches(cfg, [loadPatch(JSON.stringify(noLeaderElection))]),
    }),
    installedDisk(home('worker'), cluster.worker, talosconfig, {
      lan: { member: workerMember, via: net.via },
    }),
  ]);
  workerDisk = w;
  cp = await bootstrapped(await c.boot());
  tc = cp.tc;
  times['apply-config (before the disk booted)'] = cp.times.applied - cp.times.booted;
  times.bootstrapped = cp.times.bootstrapped - cp.times.booted;
  mark('running');
}, 30 * 60_000);

afterAll(async () => {
  if (cp) console.log(`since the control plane's disk booted (ms): ${JSON.stringify(times)}`);
  await cleanup();
  await dhcp.stop();
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
          `^${cp.address}\\s+[0-9a-f]+\\s+talos-\\S+\\s+https://${cp.address}:2380\\s+https://${cp.address}:2379\\s+false`,
        ),
      );
      const status = works(await tc('etcd', 'status'));
      expect(status).toMatch(/MEMBER\s+DB SIZE/);
      expect(status).toContain(cp.address);
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
      const row = (id: string) =>
        new RegExp(`${cp.address.replaceAll('.', '\\.')}\\s+${id}\\s+Running\\s+(\\S+)`);
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
      toolbox = await importedImage(tc, 'toolbox', 10 * 60_000);
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
    // the toolbox is imported after pause and the control plane's and pod network's images: about 220 s
    // to 410 s under TCG
    11 * 60_000,
  );

  const containersHeader = /^NODE\s+NAMESPACE\s+ID\s+IMAGE\s+PID\s+STATUS$/;

  it(
    '`talosctl containers` lists a running debug container in system, then none once its client is gone',
    async () => {
      const name = toolbox.split('@')[0]!;
      expect(works(await tc('containers')).trim()).toMatch(containersHeader);
      // a shell that outlives the listing; killing the client takes its container along
      const session = cp.piped('sleep 600\n', 'debug', name, '--namespace', 'system', '--args', '/bin/sh');
      try {
        const row = new RegExp(
          `^${cp.address.replaceAll('.', '\\.')}\\s+system\\s+debug-[0-9a-f]{16}\\s+${name.replaceAll('.', '\\.')}\\s+\\d+\\s+RUNNING$`,
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
      const r = await cp.piped(
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
      const missing = await cp.piped('', 'debug', 'keel.dev/nope:v1', '--namespace', 'system').result;
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

/** ids lists the ids of a `talosctl get` table (the column after TYPE) for one type. */
const ids = (out: string, type: string) =>
  out
    .split('\n')
    .map((l) => new RegExp(`\\s${type}\\s+(\\S+)\\s`).exec(l)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();

const CONTROL_PLANE = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];

describe('a control plane installed from the ISO runs Kubernetes', () => {
  it(
    'runs the kubelet from the Kubernetes layer, Running and healthy',
    async () => {
      await serviceHealthy(tc, 'kubelet', 10 * 60_000);
      mark('kubelet healthy');
    },
    11 * 60_000,
  );

  it(
    'renders the three control-plane static pods',
    async () => {
      await retry(
        'the static pods',
        async () => expect(ids(works(await tc('get', 'staticpods')), 'StaticPod')).toEqual(CONTROL_PLANE),
        5 * 60_000,
      );
    },
    6 * 60_000,
  );

  it(
    "imports the Kubernetes layer's images into the CRI's namespace",
    async () => {
      await retry(
        "the layer's images imported",
        async () => {
          const list = JSON.parse(
            `[${works(await tc('get', 'imageimportstatuses', '-o', 'json'))
              .trim()
              .replace(/\}\s*\{/g, '},{')}]`,
          ) as {
            metadata: { id: string };
            spec: { images: string[]; namespaces: string[]; error: string };
          }[];
          const byId = new Map(list.map((s) => [s.metadata.id, s.spec]));
          for (const id of ['pause', ...CONTROL_PLANE, 'kube-proxy']) {
            const s = byId.get(id);
            expect(s, `ImageImportStatus ${id} among ${[...byId.keys()].join(' ')}`).toBeDefined();
            expect(s!.error).toBe('');
            expect(s!.namespaces).toEqual(['k8s.io']);
            expect(s!.images.length, s!.images.join(' ')).toBeGreaterThan(0);
          }
        },
        10 * 60_000,
      );
    },
    11 * 60_000,
  );

  it(
    '`talosctl containers -k` shows kube-apiserver running',
    async () => {
      const row = new RegExp(
        `^${quoted(cp.address)}\\s+k8s\\.io\\s+(?:└─ )?kube-system/kube-apiserver-\\S+:kube-apiserver:[0-9a-f]+\\s+\\S+\\s+\\d+\\s+\\S*RUNNING$`,
        'm',
      );
      await retry(
        'kube-apiserver running',
        async () => expect(works(await tc('containers', '-k'))).toMatch(row),
        10 * 60_000,
      );
      mark('kube-apiserver running');
    },
    11 * 60_000,
  );

  let kubectl: Kubectl;

  it(
    "answers through the forwarded port with `talosctl kubeconfig`'s admin kubeconfig, verifying its certificate",
    async () => {
      kubectl = await adminKubectl(cp, dir);
      await retry(
        'the API server ready',
        async () => expect((await kubectl('get', '--raw', '/readyz')).trim()).toBe('ok'),
        10 * 60_000,
      );
      mark('apiserver answering');
      expect(await kubectl('get', 'namespace', 'kube-system', '-o', 'name')).toBe('namespace/kube-system\n');
    },
    11 * 60_000,
  );

  it(
    'applies the bootstrap manifests: ManifestStatus lists them',
    async () => {
      const applied = await retry(
        'ManifestStatus',
        async () => works(await tc('get', 'manifeststatus', '-o', 'yaml')),
        10 * 60_000,
      );
      mark('manifests applied');
      for (const id of ['00-kubelet-bootstrapping-token', '05-flannel', '10-kube-proxy'])
        expect(applied).toContain(id);
      expect(await kubectl('get', 'daemonset', '-n', 'kube-system', '-o', 'name')).toMatch(
        /daemonset\.apps\/kube-proxy\n/,
      );
    },
    11 * 60_000,
  );
  let hostname: string;
  /** daemonSetReady gives a kube-system DaemonSet's count of ready pods */
  const daemonSetReady = (name: string) =>
    kubectl('get', 'daemonset', '-n', 'kube-system', name, '-o', 'jsonpath={.status.numberReady}');

  it(
    '`kubectl get nodes` lists the node, with its version and address',
    async () => {
      hostname = (
        JSON.parse(works(await tc('get', 'hostname', '-o', 'json'))) as { spec: { hostname: string } }
      ).spec.hostname;
      await retry(
        'the node registered',
        async () => expect(await kubectl('get', 'nodes', '-o', 'name')).toContain(`node/${hostname}\n`),
        10 * 60_000,
      );
      mark('node registered');
      const wide = await kubectl('get', 'nodes', '-o', 'wide');
      expect(wide).toMatch(
        new RegExp(
          `^${hostname}\\s+(Not)?Ready\\s+\\S+\\s+\\S+\\s+v1\\.34\\.4\\s+${quoted(cp.address)}\\s`,
          'm',
        ),
      );
    },
    11 * 60_000,
  );

  it(
    'becomes Ready once flannel and kube-proxy run from the layer’s images',
    async () => {
      await nodeReady(kubectl, hostname, 15 * 60_000);
      mark('node Ready');
      for (const ds of ['kube-flannel', 'kube-proxy'])
        await retry(
          `${ds} ready`,
          async () => expect(Number(await daemonSetReady(ds))).toBeGreaterThanOrEqual(1),
          5 * 60_000,
        );
    },
    21 * 60_000,
  );

  it(
    'runs CoreDNS',
    async () => {
      await retry(
        'CoreDNS available',
        async () =>
          expect(
            Number(
              await kubectl(
                'get',
                'deployment',
                '-n',
                'kube-system',
                'coredns',
                '-o',
                'jsonpath={.status.availableReplicas}',
              ),
            ),
          ).toBeGreaterThan(0),
        10 * 60_000,
      );
      mark('CoreDNS available');
      const pods = await kubectl('get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-dns', '-o', 'wide');
      expect(pods).toMatch(/^coredns-\S+\s+1\/1\s+Running\s/m);
    },
    11 * 60_000,
  );

  /** toolboxRef is the shipped toolbox's name as the control plane imported it, without its digest */
  const toolboxRef = async () =>
    (
      JSON.parse(works(await tc('get', 'imageimportstatuses', 'toolbox', '-o', 'json'))) as {
        spec: { images: string[] };
      }
    ).spec.images[0]!.replace(/@sha256:.*$/, '');

  it(
    'runs a pod of the shipped toolbox image that resolves kubernetes.default; `kubectl logs` reads it',
    async () => {
      const toolbox = await toolboxRef();
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'keel-hello', namespace: 'default' },
        spec: {
          restartPolicy: 'Never',
          // on the control plane, whatever its NoSchedule taint says
          nodeSelector: { 'kubernetes.io/hostname': hostname },
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: 'hello',
              image: toolbox,
              imagePullPolicy: 'Never',
              // busybox's nslookup asks for the name as given, without resolv.conf's search domains
              command: [
                'sh',
                '-c',
                // CoreDNS can be available minutes before a pod on a loaded node gets its answer (up to
                // four in runs beside a booting worker): ask again for up to ten minutes
                'start=$(date +%s); until nslookup kubernetes.default.svc.cluster.local; do [ $(($(date +%s) - start)) -ge 600 ] && break; sleep 2; done; echo "answered after $(($(date +%s) - start)) s"; echo "hello from $(hostname)"',
              ],
            },
          ],
        },
      };
      const path = join(dir, 'pod.json');
      writeFileSync(path, JSON.stringify(pod));
      await kubectl('apply', '-f', path);
      await retry(
        'the pod Succeeded',
        async () => {
          const phase = await kubectl('get', 'pod', 'keel-hello', '-o', 'jsonpath={.status.phase}');
          // what its lookups said so far, should it never end
          if (phase !== 'Succeeded')
            expect(phase, await kubectl('logs', 'keel-hello', '--tail', '20').catch(() => '')).toBe(
              'Succeeded',
            );
        },
        12 * 60_000,
      );
      mark('pod succeeded');
      const logs = await kubectl('logs', 'keel-hello');
      console.log(logs.split('\n').find((l) => l.startsWith('answered after')));
      // the Service's address, as CoreDNS answers it from the cluster's service range
      expect(logs).toMatch(/Name:\s+kubernetes\.default\.svc\.cluster\.local\s+Address:\s+10\.96\.0\.1\b/);
      expect(logs).toContain('hello from keel-hello');
    },
    13 * 60_000,
  );

  /** the StaticPod resources' versions by id: a changed manifest is a new version */
  const podVersions = async () =>
    Object.fromEntries(
      JSON.parse(
        `[${works(await tc('get', 'staticpods', '-o', 'json'))
          .trim()
          .replace(/\}\s*\{/g, '},{')}]`,
      ).map((p: { metadata: { id: string; version: number } }) => [p.metadata.id, p.metadata.version]),
    ) as Record<string, number>;
  /** the kubelet's pod UID of a control plane component: a hash of its manifest */
  const podUid = (component: string) =>
    kubectl('get', 'pod', '-n', 'kube-system', `${component}-${hostname}`, '-o', 'jsonpath={.metadata.uid}');
  /** applyApiServerArgs applies the installed config again with only these API server extraArgs added */
  const applyApiServerArgs = async (args: Record<string, string>) =>
    works(
      await tc(
        'apply-config',
        '-f',
        cp.configFile,
        '-p',
        JSON.stringify({ cluster: { apiServer: { extraArgs: args } } }),
      ),
    );
  let before: { versions: Record<string, number>; uids: Record<string, string> };

  it(
    'a flag the API server rejects: its StaticPodStatus names it, and the node stays manageable',
    async () => {
      before = {
        versions: await podVersions(),
        uids: Object.fromEntries(await Promise.all(CONTROL_PLANE.map(async (c) => [c, await podUid(c)]))),
      };
      await applyApiServerArgs({ 'keel-no-such-flag': 'on' });
      const status = await retry(
        'the API server’s status naming the flag',
        async () => {
          const yaml = works(
            await tc('get', 'staticpodstatus', `kube-system/kube-apiserver-${hostname}`, '-o', 'yaml'),
          );
          expect(yaml).toContain('unknown flag: --keel-no-such-flag');
          return yaml;
        },
        10 * 60_000,
      );
      mark('bad flag reported');
      expect(status).toMatch(/exitCode: 1\b/);
      // the node's own API answers throughout
      works(await tc('version'));
      expect(works(await tc('get', 'staticpods'))).toContain('kube-apiserver');
    },
    11 * 60_000,
  );

  it(
    'changing apiServer.extraArgs restarts only the API server’s static pod',
    async () => {
      await applyApiServerArgs({ 'event-ttl': '2h' });
      await retry(
        'the API server back with the new flag',
        async () => {
          expect((await kubectl('get', '--raw', '/readyz')).trim()).toBe('ok');
          expect(works(await tc('processes'))).toMatch(/kube-apiserver .*--event-ttl=2h/);
        },
        10 * 60_000,
      );
      mark('API server restarted with the new flag');
      const after = await podVersions();
      expect(after['kube-apiserver']).toBeGreaterThan(before.versions['kube-apiserver']!);
      for (const c of ['kube-controller-manager', 'kube-scheduler']) {
        expect(after[c], c).toBe(before.versions[c]);
        expect(await podUid(c), c).toBe(before.uids[c]);
      }
      await retry(
        'the API server’s mirror pod renewed',
        async () => expect(await podUid('kube-apiserver')).not.toBe(before.uids['kube-apiserver']),
        5 * 60_000,
      );
      await nodeReady(kubectl, hostname, 10 * 60_000);
    },
    26 * 60_000,
  );

  let workerName: string;

  it(
    "boots the worker from the disk it installed itself on, once the control plane's own steps are done",
    async () => {
      worker = await workerDisk.boot();
      mark('worker booted');
    },
    6 * 60_000,
  );

  it(
    "the worker's API answers with the certificate trustd issued it: a worker, on its LAN address",
    async () => {
      // until trustd on the control plane has signed its certificate, the worker's apid does not listen
      const type = await retry(
        "the worker's MachineType",
        async () => works(await worker.tc('get', 'machinetype', '-o', 'yaml')),
        15 * 60_000,
      );
      mark('worker API answering');
      expect(type).toMatch(/^spec: worker$/m);
      workerName = (
        JSON.parse(works(await worker.tc('get', 'hostname', '-o', 'json'))) as { spec: { hostname: string } }
      ).spec.hostname;
      expect(workerName).not.toBe(hostname);
    },
    16 * 60_000,
  );

  it(
    'the worker joins: its kubelet, TLS-bootstrapped, registers a Ready node of no role with its LAN address',
    async () => {
      await serviceHealthy(worker.tc, 'kubelet', 15 * 60_000);
      await nodeReady(kubectl, workerName, 15 * 60_000);
      mark('worker Ready');
      expect(await kubectl('get', 'nodes', '-o', 'wide')).toMatch(
        new RegExp(
          `^${workerName}\\s+Ready\\s+<none>\\s+\\S+\\s+v1\\.34\\.4\\s+${quoted(worker.address)}\\s`,
          'm',
        ),
      );
      for (const ds of ['kube-flannel', 'kube-proxy'])
        await retry(
          `${ds} ready on both nodes`,
          async () => expect(await daemonSetReady(ds)).toBe('2'),
          10 * 60_000,
        );
      // a worker runs no control plane
      expect(ids(works(await worker.tc('get', 'staticpods')), 'StaticPod')).toEqual([]);
    },
    41 * 60_000,
  );

  /** runPod runs a pod of the shipped toolbox on node `on`, running `script` with sh */
  const runPod = async (name: string, on: string, script: string) => {
    const toolbox = await toolboxRef();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: {
        restartPolicy: 'Never',
        nodeSelector: { 'kubernetes.io/hostname': on },
        tolerations: [{ operator: 'Exists' }],
        containers: [{ name, image: toolbox, imagePullPolicy: 'Never', command: ['sh', '-c', script] }],
      },
    };
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(pod));
    await kubectl('apply', '-f', path);
  };
  const podField = (name: string, path: string) => kubectl('get', 'pod', name, '-o', `jsonpath={${path}}`);

  it(
    'a pod on the worker reaches a pod on the control plane across flannel',
    async () => {
      await importedImage(worker.tc, 'toolbox', 10 * 60_000);
      await runPod(
        'keel-server',
        hostname,
        'mkdir -p /www && echo "pong from $(hostname)" > /www/index.html && exec httpd -f -p 8080 -h /www',
      );
      const serverIp = await retry(
        'the server pod running',
        async () => {
          expect(await podField('keel-server', '.status.phase')).toBe('Running');
          const ip = await podField('keel-server', '.status.podIP');
          expect(ip).toMatch(/^10\.244\.\d+\.\d+$/);
          return ip;
        },
        5 * 60_000,
      );
      // busybox's wget crashes in this build; nc speaks HTTP/1.0 well enough
      await runPod(
        'keel-client',
        workerName,
        `for i in $(seq 20); do printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 5 ${serverIp} 8080 && exit 0; sleep 3; done; exit 1`,
      );
      await retry(
        'the client pod Succeeded',
        async () => expect(await podField('keel-client', '.status.phase')).toBe('Succeeded'),
        5 * 60_000,
      );
      mark('pod to pod across nodes');
      expect(await podField('keel-client', '.spec.nodeName')).toBe(workerName);
      expect(await podField('keel-server', '.spec.nodeName')).toBe(hostname);
      const logs = await kubectl('logs', 'keel-client');
      expect(logs).toMatch(/^HTTP\/1\.[01] 200 OK/m);
      expect(logs).toContain('pong from keel-server');
    },
    16 * 60_000,
  );

  it(
    '`talosctl health` passes every check over both nodes',
    async () => {
      const run = await retry(
        'talosctl health',
        async () => {
          const r = await tc(
            'health',
            '--control-plane-nodes',
            cp.address,
            '--worker-nodes',
            worker.address,
            '--wait-timeout',
            '100s',
          );
          works(r);
          return r;
        },
        10 * 60_000,
      );
      mark('health passed');
      // talosctl writes the checks' progress to stderr, the last check last
      expect(run.stderr).toContain('waiting for all k8s nodes to report schedulable: OK');
      expect(run.stderr).not.toContain('healthcheck error');
    },
    11 * 60_000,
  );
});
