// Kubernetes' layer (scripts/components.ts --layer-name kubernetes): the kubelet, and the images of pause and
// of the control plane, built from k8s.io/kubernetes. Checked from the outside, on the unpacked layer and
// the cached build: each binary says the pinned version, is stripped and static; each image holds its binary
// where upstream's does and is named as upstream's; pause is the same bytes from a cold cache; packages.txt
// names everything with its sha256; the layer is byte-reproducible. Builds what is not cached (cold, about
// 10 min on 2 cores).
//
// Reproducible against the build `make image` made: `make test` builds the image (and with it
// _out/kubernetes.sqsh) before the tests, so the layer this test builds is compared with that one, written
// by another process at another time from other temporary trees, and the two zstd-19 passes over its
// 423 MB are one here and one in the image. When make says _out/kubernetes.sqsh is not up to date with its
// inputs (`make -q`: missing, or older than the manifest or the build code), the test builds it a second
// time itself, as it did before the image carried the layer.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Built, buildComponent } from '../../scripts/components/build.js';
import { sectionNames } from '../../scripts/components/elf.js';
import { buildImage } from '../../scripts/components/image.js';
import { IMAGES_DIR, type Image, parseImages } from '../../scripts/components/image-manifest.js';
import { PACKAGES_TXT } from '../../scripts/components/layer.js';
import { type Component, parseComponents } from '../../scripts/components/manifest.js';
import { readElfDeps } from '../../scripts/rootfs/elf.js';
import { layerFiles } from './components/layer-files.js';
import { readTar } from './components/read-tar.js';

const exec = promisify(execFile);
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
/** a cold build on 2 cores takes about 10 min, the layer from the cache about 3 */
const BUILD_TIMEOUT = 1_800_000;
const LAYER_TIMEOUT = 600_000;
const LAYER = 'kubernetes';

let tmp = '';
let layer = '';
let root = '';
let k8s: Component;
let built: Built;
let images: Image[] = [];

const buildLayer = (out: string) =>
  exec(
    process.execPath,
    ['--import', 'tsx', repo('scripts/components.ts'), '--layer', out, '--layer-name', LAYER],
    { cwd: repo(''), maxBuffer: 16 << 20 },
  );

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** the image's own build of the layer, when make says it is up to date with the manifest and the code */
async function imageBuild(): Promise<string | undefined> {
  const target = '_out/kubernetes.sqsh';
  try {
    await exec('make', ['-q', target], { cwd: repo('') });
    return repo(target);
  } catch {
    return undefined; // make -q exits 1 when the target would be remade
  }
}

async function stripedStatic(file: string): Promise<void> {
  expect(await sectionNames(file), file).not.toContain('.symtab');
  const deps = await readElfDeps(file);
  expect({ file, interpreter: deps?.interpreter, needed: deps?.needed }).toEqual({
    file,
    interpreter: undefined,
    needed: [],
  });
}

/** image reads an archive: its index's names, its config, and its layer's files by path */
function image(tar: Buffer) {
  const outer = new Map(readTar(tar).map((e) => [e.name, e.data]));
  const blob = (d: string) => outer.get(`blobs/sha256/${d.slice('sha256:'.length)}`)!;
  const index = JSON.parse(outer.get('index.json')!.toString()) as {
    manifests: { digest: string; annotations: Record<string, string> }[];
  };
  const m = JSON.parse(blob(index.manifests[0]!.digest).toString());
  return {
    names: index.manifests.map((x) => x.annotations['io.containerd.image.name']),
    digests: index.manifests.map((x) => x.digest),
    config: JSON.parse(blob(m.config.digest).toString()).config as Record<string, unknown>,
    files: new Map(readTar(blob(m.layers[0].digest)).map((e) => [e.name, e])),
  };
}

beforeAll(async () => {
  const manifest = await readFile(repo('images/components.yaml'), 'utf8');
  k8s = parseComponents(manifest).find((c) => c.name === 'kubernetes')!;
  images = parseImages(manifest).filter((i) => i.layer === LAYER);
  tmp = await mkdtemp(join(tmpdir(), 'keel-kubernetes-test-'));
  layer = join(tmp, 'a.sqsh');
  await buildLayer(layer);
  built = await buildComponent(k8s); // cached by the layer's build
  root = join(tmp, 'root');
  await exec('unsquashfs', ['-no-progress', '-quiet', '-d', root, layer]);
}, BUILD_TIMEOUT);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('kubernetes layer', () => {
  it("holds the kubelet, the images' archives and packages.txt, nothing else", async () => {
    const archives = images.map((i) => `${IMAGES_DIR}/${i.name}.tar`);
    expect(await layerFiles(root)).toEqual(['/usr/bin/kubelet', ...archives, PACKAGES_TXT].sort());
    expect((await stat(join(root, 'usr/bin/kubelet'))).mode & 0o777).toBe(0o755);
  });

  it('every binary built reports the pinned version and is stripped and static', async () => {
    const version = new RegExp(`^Kubernetes ${k8s.version}$`, 'm');
    const run = async (file: string, args: string[]) => {
      const r = await exec(file, args, { encoding: 'utf8' });
      return r.stdout + r.stderr;
    };
    expect(await run(join(root, 'usr/bin/kubelet'), ['--version'])).toMatch(version);
    await stripedStatic(join(root, 'usr/bin/kubelet'));
    expect(built.info.extra).toEqual([
      'kube-apiserver',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-proxy',
      'kubectl',
    ]);
    for (const b of built.info.extra) {
      await stripedStatic(join(built.dir, b));
      if (b !== 'kubectl') expect(await run(join(built.dir, b), ['--version']), b).toMatch(version);
    }
    const kubectl = await run(join(built.dir, 'kubectl'), ['version', '--client']);
    expect(kubectl).toMatch(new RegExp(`^Client Version: ${k8s.version}$`, 'm'));
  });

  it('each server image holds its binary at /usr/local/bin, under the name upstream gives it', async () => {
    // Kubernetes' own; the add-ons' images have their test (components-addons.test.ts)
    for (const img of images.filter((i) => i.source.kind === 'binary' && i.source.component === k8s.name)) {
      const name = img.name;
      const a = image(await readFile(join(root, IMAGES_DIR, `${name}.tar`)));
      expect(a.names).toEqual([`registry.k8s.io/${name}:${k8s.version}`]);
      // kube-proxy's also holds the netfilter base, which components-netfilter.test.ts checks
      const own = [...a.files.keys()].filter((p) => !img.base || p.startsWith('usr/local/'));
      expect(own).toEqual([
        ...(img.base ? [] : ['usr/']),
        'usr/local/',
        'usr/local/bin/',
        `usr/local/bin/${name}`,
      ]);
      const bin = a.files.get(`usr/local/bin/${name}`)!;
      expect(bin.mode, name).toBe(0o755);
      expect(sha256(bin.data), name).toBe(sha256(await readFile(join(built.dir, name))));
      // no entrypoint: the pod's command names the binary, found on PATH
      expect(a.config.Entrypoint).toBeUndefined();
      expect(a.config.Env).toContain('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    }
  });

  it('pause is built from the module, static, named as kubeadm and containerd ask, and reproducible', async () => {
    const tar = await readFile(join(root, IMAGES_DIR, 'pause.tar'));
    const a = image(tar);
    expect(a.names).toEqual(['registry.k8s.io/pause:3.10.1', 'registry.k8s.io/pause:3.10.2']);
    expect(new Set(a.digests).size).toBe(1);
    expect(a.config).toMatchObject({ Entrypoint: ['/pause'], User: '65535:65535' });
    const pause = a.files.get('pause')!;
    const file = join(tmp, 'pause');
    await writeFile(file, pause.data, { mode: 0o755 });
    await stripedStatic(file);
    expect((await exec(file, ['-v'], { encoding: 'utf8' })).stdout).toBe(`pause.c v3.10.1-${k8s.version}\n`);

    // a cold cache compiles it again to the same bytes
    const img = images.find((i) => i.name === 'pause')!;
    const again = await buildImage(img, {
      cache: join(tmp, 'cache'),
      components: new Map([[k8s.name, built]]),
    });
    expect(again.hit).toBe(false);
    expect((await readFile(join(again.dir, again.info.file))).equals(tar)).toBe(true);
  });

  it('packages.txt names Kubernetes with the kubelet, and every image with its source and sha256', async () => {
    const lines = (await readFile(join(root, PACKAGES_TXT), 'utf8'))
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    // the layer's components (Kubernetes, then the add-ons whose binaries only their images carry)
    const components = parseComponents(await readFile(repo('images/components.yaml'), 'utf8')).filter(
      (c) => c.layer === LAYER,
    );
    expect(lines.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      ...components.map((c) => `${c.name} ${c.version}`),
      ...images.map((i) => `${i.name} ${i.ref}`),
    ]);
    const kubelet = sha256(await readFile(join(root, 'usr/bin/kubelet')));
    expect(lines[0]).toMatch(new RegExp(` modules=k8s.io/kubernetes /usr/bin/kubelet=${kubelet}$`));
    const first = components.length;
    for (const [i, img] of images.entries()) {
      const path = `${IMAGES_DIR}/${img.name}.tar`;
      expect(lines[first + i]).toMatch(/ from=\S+ (links=\S+ )?(debs=\S+ )?digest=sha256:[0-9a-f]{64} /);
      expect(lines[first + i]!.endsWith(` ${path}=${sha256(await readFile(join(root, path)))}`)).toBe(true);
    }
    expect(lines[first]).toContain(' also=registry.k8s.io/pause:3.10.2 ');
  });

  it(
    'is byte-reproducible: the same bytes as the image’s build of it (else a second build)',
    async () => {
      let again = await imageBuild();
      if (!again) {
        again = join(tmp, 'b.sqsh');
        await buildLayer(again);
      }
      expect(sha256(await readFile(again)), again).toBe(sha256(await readFile(layer)));
    },
    LAYER_TIMEOUT,
  );
});
