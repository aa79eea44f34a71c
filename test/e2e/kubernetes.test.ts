// A control plane made from the image becomes a Ready Kubernetes node from what its image ships (issue 32),
// driven by the stock talosctl and kubectl: installed from the ISO as in etcd.test.ts, bootstrapped, then
// in order the kubelet Running and healthy, the three static pods rendered, the layer's images imported
// into the CRI's namespace, kube-apiserver running as a container of the CRI, the API server answering
// the admin kubeconfig through the forwarded 6443, the bootstrap manifests applied, the node registered
// and Ready (flannel and kube-proxy running from the layer's images), CoreDNS running, and a pod of the
// shipped toolbox image resolving `kubernetes.default` through it, its output read with `kubectl logs`.
// QEMU's user network reaches no registry: every image comes from the node. The kubelet and the
// bootstrap manifests reach the API server through KubePrism, as generated. One VM serves every step
// (each an `it`, in order); the milestones' times since the disk booted are logged at the end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SERVER_PORT, adminKubectl, type Kubectl, nodeReady } from './kubectl.js';
import {
  type ControlPlane,
  cleanup,
  GUEST,
  installedControlPlane,
  retry,
  serviceHealthy,
  type Talosctl,
  works,
} from './node.js';

let dir: string;
let node: ControlPlane;
let tc: Talosctl;
/** ms since the disk booted, per milestone, logged at the end */
const times: Record<string, number> = {};
const mark = (what: string) => {
  times[what] = Date.now() - node.times.booted;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-k8s-'));
  node = await installedControlPlane(dir, 'keel-k8s', { forward: [API_SERVER_PORT] });
  tc = node.tc;
  times['apply-config (before the disk booted)'] = node.times.applied - node.times.booted;
  times.bootstrapped = node.times.bootstrapped - node.times.booted;
  mark('running');
}, 20 * 60_000);

afterAll(async () => {
  if (node) console.log(`since the installed disk booted (ms): ${JSON.stringify(times)}`);
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
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
        `^${GUEST.replaceAll('.', '\\.')}\\s+k8s\\.io\\s+(?:└─ )?kube-system/kube-apiserver-\\S+:kube-apiserver:[0-9a-f]+\\s+\\S+\\s+\\d+\\s+\\S*RUNNING$`,
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
      kubectl = await adminKubectl(node, dir);
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

  it(
    '`kubectl get nodes` lists the node, with its version and address',
    async () => {
      hostname = (
        JSON.parse(works(await tc('get', 'hostname', '-o', 'json'))) as { spec: { hostname: string } }
      ).spec.hostname;
      await retry(
        'the node registered',
        async () => expect(await kubectl('get', 'nodes', '-o', 'name')).toBe(`node/${hostname}\n`),
        10 * 60_000,
      );
      mark('node registered');
      const wide = await kubectl('get', 'nodes', '-o', 'wide');
      expect(wide).toMatch(
        new RegExp(
          `^${hostname}\\s+(Not)?Ready\\s+\\S+\\s+\\S+\\s+v1\\.34\\.4\\s+${GUEST.replaceAll('.', '\\.')}\\s`,
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
          async () =>
            expect(
              await kubectl(
                'get',
                'daemonset',
                '-n',
                'kube-system',
                ds,
                '-o',
                'jsonpath={.status.numberReady}',
              ),
            ).toBe('1'),
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

  it(
    'runs a pod of the shipped toolbox image that resolves kubernetes.default; `kubectl logs` reads it',
    async () => {
      const toolbox = (
        JSON.parse(works(await tc('get', 'imageimportstatuses', 'toolbox', '-o', 'json'))) as {
          spec: { images: string[] };
        }
      ).spec.images[0]!.replace(/@sha256:.*$/, '');
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'keel-hello', namespace: 'default' },
        spec: {
          restartPolicy: 'Never',
          // the control plane's NoSchedule taint: this one node is the whole cluster
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
                'nslookup kubernetes.default.svc.cluster.local; echo "hello from $(hostname)"',
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
        async () =>
          expect(await kubectl('get', 'pod', 'keel-hello', '-o', 'jsonpath={.status.phase}')).toBe(
            'Succeeded',
          ),
        5 * 60_000,
      );
      mark('pod succeeded');
      const logs = await kubectl('logs', 'keel-hello');
      // the Service's address, as CoreDNS answers it from the cluster's service range
      expect(logs).toMatch(/Name:\s+kubernetes\.default\.svc\.cluster\.local\s+Address:\s+10\.96\.0\.1\b/);
      expect(logs).toContain('hello from keel-hello');
    },
    6 * 60_000,
  );

  it(
    '`talosctl health` passes every check, the node its only control plane',
    async () => {
      const run = await retry(
        'talosctl health',
        async () => {
          const r = await tc('health', '--control-plane-nodes', GUEST, '--wait-timeout', '100s');
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
        join(dir, 'controlplane.yaml'),
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
});
