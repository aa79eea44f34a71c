// cri.ImageImportStatusController against a real containerd: the pinned containerd, shim, ctr and runc and
// the toolbox archive (built once, then from the cache), laid out as the components layer in a temp root,
// beside a Kubernetes layer holding an archive and no ctr, containerd run with the config the node's
// controller writes. Needs root (containerd, overlayfs, runc).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  type ContainerdPaths,
  containerdConfig,
  containerdSocket,
} from '../../../controllers/cri/containerd.js';
import {
  IMAGE_IMPORT_STATUS_CONTROLLER,
  imageImportStatusController,
  imported,
  importOrder,
  LAYER_IMAGES_DIR,
  runsOn,
} from '../../../controllers/cri/image-import-status.js';
import { CONFIG_NAMESPACE } from '../../../resources/config/machine-config.js';
import { MACHINE_TYPE_ID, MachineType } from '../../../resources/config/machine-type.js';
import { ImageImportStatus } from '../../../resources/cri/index.js';
import {
  COMPONENTS_LAYER_ID,
  ComponentsLayer,
  KUBERNETES_LAYER_ID,
  RUNTIME_NAMESPACE,
} from '../../../resources/runtime/index.js';
import { Service } from '../../../resources/v1alpha1/index.js';
import { ociArchive } from '../../../scripts/components/oci-archive.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { parseMountInfo } from '../../../src/sys/mountinfo.js';
import { componentDir } from '../../etcd/fixtures.js';
import { type RuntimeEnv, startRuntime } from '../network/env.js';

const SLOW = { timeoutMs: 60_000 };

/** oneFileImage is an OCI archive of image `name` whose one layer holds the file `path` */
const oneFileImage = (name: string, path: string) =>
  ociArchive({
    name,
    arch: 'amd64',
    layer: [{ path, type: 'file', mode: 0o644, content: Buffer.from(path) }],
    config: {},
  });

describe('imported', () => {
  const ok = { archive: '/a.tar', sha256: 'x', namespaces: ['system'], images: ['a'], error: '' };
  it('means these bytes were imported without an error', () => {
    expect(imported(ok, 'x')).toBe(true);
    expect(imported(ok, 'y')).toBe(false);
    expect(imported({ ...ok, error: 'ctr failed' }, 'x')).toBe(false);
    expect(imported(undefined, 'x')).toBe(false);
  });
});

describe('runsOn', () => {
  it('leaves the control plane’s images off a worker, and nothing off any other node', () => {
    for (const name of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
      expect(runsOn(name, 'worker'), name).toBe(false);
      for (const role of ['controlplane', 'init', 'unknown'] as const) expect(runsOn(name, role)).toBe(true);
    }
    for (const name of ['pause', 'kube-proxy', 'flannel', 'coredns', 'toolbox', 'kube-apiserver-extra'])
      expect(runsOn(name, 'worker'), name).toBe(true);
  });
});

describe('importOrder', () => {
  it('puts pause, the control plane’s images, then the pod network’s before the rest, which keep their order', () => {
    const names = [
      'toolbox',
      'coredns',
      'flannel',
      'kube-apiserver',
      'kube-proxy',
      'kube-scheduler',
      'pause',
    ];
    const order = importOrder(names.map((n) => ({ archive: `/l/${n}.tar` }))).map((a) => a.archive);
    expect(order).toEqual(
      ['pause', 'kube-apiserver', 'kube-scheduler', 'flannel', 'kube-proxy', 'toolbox', 'coredns'].map(
        (n) => `/l/${n}.tar`,
      ),
    );
  });
});

interface Node {
  readonly layer: string;
  /** Kubernetes' layer: one archive, `kube-marker.tar` (its image `kubeMarker`), and no ctr */
  readonly kubernetes: string;
  readonly kubeMarker: { readonly name: string; readonly digest: string };
  readonly paths: ContainerdPaths;
  readonly ref: string;
  readonly digest: string;
  ctr(...args: string[]): string;
  /** runs the controller, given the layer and a healthy containerd */
  start(): Promise<RuntimeEnv>;
}

/** node lays out a components layer holding the toolbox archive and runs its containerd, until the test ends */
async function node(): Promise<Node> {
  if (process.getuid?.() !== 0) throw new Error('this test needs root: containerd, overlayfs and runc');
  const work = mkdtempSync(join(tmpdir(), 'keel-image-import-'));
  const layer = join(work, 'layer');
  mkdirSync(join(layer, 'usr/bin'), { recursive: true });
  for (const [c, bins] of [
    ['containerd', ['containerd', 'containerd-shim-runc-v2', 'ctr']],
    ['runc', ['runc']],
  ] as const)
    for (const b of bins) symlinkSync(join(componentDir(c), b), join(layer, 'usr/bin', b));
  const toolbox = componentDir('toolbox');
  const info = JSON.parse(readFileSync(join(toolbox, 'image.json'), 'utf8')) as {
    ref: string;
    digest: string;
  };
  mkdirSync(join(layer, LAYER_IMAGES_DIR), { recursive: true });
  copyFileSync(join(toolbox, 'toolbox.tar'), join(layer, LAYER_IMAGES_DIR, 'toolbox.tar'));
  const kubernetes = join(work, 'kubernetes');
  mkdirSync(join(kubernetes, LAYER_IMAGES_DIR), { recursive: true });
  const kubeMarker = oneFileImage('keel.dev/kube-marker:v1', 'kube-marker');
  writeFileSync(join(kubernetes, LAYER_IMAGES_DIR, 'kube-marker.tar'), kubeMarker.tar);

  const root = join(work, 'node');
  const paths = {
    root: join(root, 'var/lib/containerd'),
    state: join(root, 'run/containerd'),
    config: join(root, 'run/containerd'),
    cniConf: join(root, 'etc/cni/net.d'),
  };
  mkdirSync(paths.config, { recursive: true });
  writeFileSync(join(paths.config, 'config.toml'), containerdConfig(layer, paths));
  const bin = join(layer, 'usr/bin');
  const proc: ChildProcess = spawn(join(bin, 'containerd'), ['--config', join(paths.config, 'config.toml')], {
    env: { PATH: `${bin}:/usr/bin:/usr/sbin:/bin:/sbin` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-4000);
  });
  const envs: RuntimeEnv[] = [];
  onTestFinished(async () => {
    for (const e of envs) await e.stop();
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    }
    // what containerd left mounted (snapshots, its shim's state) comes down before the tree goes
    const mounts = parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8'))
      .map((m) => m.mountPoint)
      .filter((p) => p.startsWith(`${work}/`))
      .reverse();
    for (const m of mounts) execFileSync('umount', ['-l', m]);
    rmSync(work, { recursive: true, force: true });
  });

  const ctr = (...args: string[]) =>
    execFileSync(join(bin, 'ctr'), ['--address', containerdSocket(paths), ...args], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/usr/sbin:/bin:/sbin` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  for (let i = 0; ; i++) {
    try {
      ctr('version');
      break;
    } catch (e) {
      if (proc.exitCode !== null || i > 300)
        throw new Error(`containerd did not answer: ${(e as Error).message}\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const start = async () => {
    const env = startRuntime([imageImportStatusController(paths)]);
    envs.push(env);
    // Kubernetes' layer first: its archive waits for the components layer's ctr
    await env.state.create(
      ComponentsLayer.new(RUNTIME_NAMESPACE, KUBERNETES_LAYER_ID, {
        root: kubernetes,
        source: work,
        packages: '',
      }),
    );
    await env.state.create(
      ComponentsLayer.new(RUNTIME_NAMESPACE, COMPONENTS_LAYER_ID, {
        root: layer,
        source: work,
        packages: '',
      }),
    );
    await env.state.create(
      Service.new('runtime', 'containerd', { running: true, healthy: true, unknown: false }),
    );
    return env;
  };
  return {
    layer,
    kubernetes,
    kubeMarker: { name: 'keel.dev/kube-marker:v1', digest: kubeMarker.manifestDigest },
    paths,
    ref: info.ref,
    digest: info.digest,
    ctr,
    start,
  };
}

const names = (out: string) => out.trim().split('\n');

describe('cri.ImageImportStatusController (a real containerd)', () => {
  it('imports the layers’ archives into system and k8s.io, the toolbox runnable, once a boot', async () => {
    const n = await node();
    const env = await n.start();
    await assertResource(
      env.state,
      ImageImportStatus,
      'toolbox',
      (r) => {
        expect(r.metadata.owner).toBe(IMAGE_IMPORT_STATUS_CONTROLLER);
        expect(r.spec).toMatchObject({
          archive: join(n.layer, LAYER_IMAGES_DIR, 'toolbox.tar'),
          namespaces: ['system', 'k8s.io'],
          images: [`${n.ref}@${n.digest}`],
          error: '',
        });
      },
      SLOW,
    );
    expect(names(n.ctr('namespaces', 'ls', '-q'))).toEqual(expect.arrayContaining(['system', 'k8s.io']));
    for (const ns of ['system', 'k8s.io']) {
      expect(names(n.ctr('-n', ns, 'images', 'ls', '-q'))).toContain(n.ref);
      // unpacked for the default snapshotter, and pinned against the kubelet's image GC
      expect(n.ctr('-n', ns, 'images', 'check')).toMatch(
        new RegExp(`^${n.ref.replace(/\./g, '\\.')}\\s.*complete`, 'm'),
      );
      expect(n.ctr('-n', ns, 'images', 'ls')).toContain('io.cri-containerd.pinned=pinned');
    }
    expect(n.ctr('-n', 'system', 'run', '--rm', n.ref, 't1', '/bin/sh', '-c', 'echo ok')).toBe('ok\n');

    // Kubernetes' layer's archives too, with the components layer's ctr, into the CRI's namespace only
    await assertResource(
      env.state,
      ImageImportStatus,
      'kube-marker',
      (r) =>
        expect(r.spec).toMatchObject({
          archive: join(n.kubernetes, LAYER_IMAGES_DIR, 'kube-marker.tar'),
          namespaces: ['k8s.io'],
          images: [`${n.kubeMarker.name}@${n.kubeMarker.digest}`],
          error: '',
        }),
      SLOW,
    );
    expect(names(n.ctr('-n', 'k8s.io', 'images', 'ls', '-q'))).toContain(n.kubeMarker.name);
    expect(names(n.ctr('-n', 'system', 'images', 'ls', '-q'))).not.toContain(n.kubeMarker.name);

    // once a boot: a later pass (woken by a second archive, which sorts after it) leaves an imported archive
    // alone, so an image removed since is not put back
    n.ctr('-n', 'k8s.io', 'images', 'rm', n.ref);
    const marker = oneFileImage('keel.dev/marker:v1', 'marker');
    writeFileSync(join(n.layer, LAYER_IMAGES_DIR, 'zz-marker.tar'), marker.tar);
    await env.state.modify(ComponentsLayer.new(RUNTIME_NAMESPACE, COMPONENTS_LAYER_ID), (r) => {
      (r as ComponentsLayer).spec = { root: n.layer, source: 'again', packages: '' };
    });
    await assertResource(
      env.state,
      ImageImportStatus,
      'zz-marker',
      (r) => expect(r.spec.images).toEqual([`keel.dev/marker:v1@${marker.manifestDigest}`]),
      SLOW,
    );
    expect(names(n.ctr('-n', 'k8s.io', 'images', 'ls', '-q'))).not.toContain(n.ref);
  }, 120_000);

  it('imports no control plane image on a worker, and drops a status shown before the role was known', async () => {
    const n = await node();
    const scheduler = oneFileImage('registry.k8s.io/kube-scheduler:v0', 'kube-scheduler');
    writeFileSync(join(n.kubernetes, LAYER_IMAGES_DIR, 'kube-scheduler.tar'), scheduler.tar);
    const env = await n.start();
    // the role not known yet: everything is imported
    await assertResource(
      env.state,
      ImageImportStatus,
      'kube-scheduler',
      (r) => expect(r.spec.error).toBe(''),
      SLOW,
    );
    await env.state.create(MachineType.new(CONFIG_NAMESPACE, MACHINE_TYPE_ID, { type: 'worker' }));
    await assertNoResource(env.state, ImageImportStatus, 'kube-scheduler', SLOW);
    await assertResource(
      env.state,
      ImageImportStatus,
      'kube-marker',
      (r) => expect(r.spec.error).toBe(''),
      SLOW,
    );
  }, 120_000);

  it('shows why an archive would not import, and imports the others', async () => {
    const n = await node();
    writeFileSync(join(n.layer, LAYER_IMAGES_DIR, 'broken.tar'), 'not an archive');
    const env = await n.start();
    await assertResource(
      env.state,
      ImageImportStatus,
      'broken',
      (r) => {
        expect(r.spec.error).toMatch(/^ctr images import: /);
        expect(r.spec.images).toEqual([]);
      },
      SLOW,
    );
    await assertResource(env.state, ImageImportStatus, 'toolbox', (r) => expect(r.spec.error).toBe(''), SLOW);
  }, 120_000);
});
