// A control plane made from the image runs Kubernetes' control plane from the Kubernetes layer (issue 32),
// driven by the stock talosctl and kubectl: installed from the ISO as in etcd.test.ts, bootstrapped, then
// in order the kubelet Running and healthy, the three static pods rendered, the layer's images imported
// into the CRI's namespace, kube-apiserver running as a container of the CRI, the API server answering
// the admin kubeconfig through the forwarded 6443, the bootstrap manifests applied, and the node
// registered. KubePrism is turned off in the config: the bootstrap manifests and the kubelet then dial the
// API server itself. No pod network yet, so the node stays NotReady. One VM serves every step (each an
// `it`, in order); the milestones' times since the disk booted are logged at the end.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/index.js';
import { componentDir } from '../etcd/fixtures.js';
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

const exec = promisify(execFile);
const API_SERVER_PORT = 6443;

let dir: string;
let node: ControlPlane;
let tc: Talosctl;
/** ms since the disk booted, per milestone, logged at the end */
const times: Record<string, number> = {};
const mark = (what: string) => {
  times[what] = Date.now() - node.times.booted;
};

/** withoutKubePrism turns machine.features.kubePrism off, keeping the other features as generated. */
function withoutKubePrism(cfg: Config): Config {
  return {
    documents: cfg.documents.map((d) => {
      if (d.kind !== 'v1alpha1') return d;
      const spec = d.spec as { machine?: { features?: Record<string, unknown> } };
      const machine = spec.machine ?? {};
      const features = { ...machine.features, kubePrism: { enabled: false } };
      return { ...d, spec: { ...spec, machine: { ...machine, features } } } as typeof d;
    }),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-k8s-'));
  node = await installedControlPlane(dir, 'keel-k8s', {
    config: withoutKubePrism,
    forward: [API_SERVER_PORT],
  });
  tc = node.tc;
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

  let kubectl: (...args: string[]) => Promise<string>;

  it(
    "answers through the forwarded port with `talosctl kubeconfig`'s admin kubeconfig, verifying its certificate",
    async () => {
      const path = join(dir, 'kubeconfig');
      works(await tc('kubeconfig', path));
      const host = node.forwarded.get(API_SERVER_PORT)!;
      // the endpoint is the guest's address; the server's certificate names 127.0.0.1 too, so the
      // forwarded port keeps the check against the cluster CA
      const config = readFileSync(path, 'utf8');
      expect(config).toContain(`server: https://${GUEST}:${API_SERVER_PORT}`);
      writeFileSync(
        path,
        config.replaceAll(`https://${GUEST}:${API_SERVER_PORT}`, `https://127.0.0.1:${host}`),
      );
      const bin = join(componentDir('kubernetes'), 'kubectl');
      kubectl = async (...args) =>
        (await exec(bin, ['--kubeconfig', path, '--request-timeout', '20s', ...args], { timeout: 60_000 }))
          .stdout;
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
  it(
    '`kubectl get nodes` lists the node (NotReady: no pod network yet)',
    async () => {
      const hostname = (
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
});
