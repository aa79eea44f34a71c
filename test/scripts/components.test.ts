// The extension layer (scripts/components.ts): etcd, containerd, runc and the CNI plugins, built from their
// Go modules. Checked from the outside, on the unpacked layer: each binary reports the version the manifest
// pins, is stripped and static; packages.txt names every component and binary with its sha256; the layer is
// byte-reproducible; and the built etcd serves a put and a get on loopback.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sectionNames } from '../../scripts/components/elf.js';
import { IMAGES_DIR, type Image, parseImages } from '../../scripts/components/image-manifest.js';
import { PACKAGES_TXT } from '../../scripts/components/layer.js';
import { type Component, DEFAULT_LAYER, parseComponents } from '../../scripts/components/manifest.js';
import { freePort } from '../../scripts/lib/free-port.js';
import { readElfDeps } from '../../scripts/rootfs/elf.js';
import { layerFiles } from './components/layer-files.js';

const exec = promisify(execFile);
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
/** a cold build of every component on 2 cores takes about 5 min; from the cache the layer takes ~40 s */
const BUILD_TIMEOUT = 1_800_000;
const LAYER_TIMEOUT = 300_000;

let tmp = '';
let layer = '';
let root = '';
let components: Component[] = [];
let images: Image[] = [];

const buildLayer = (out: string) =>
  exec(process.execPath, ['--import', 'tsx', repo('scripts/components.ts'), '--layer', out], {
    cwd: repo(''),
    maxBuffer: 16 << 20,
  });

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

/**
 * goVersionOf reads the Go version a binary was built with from its build info: the blob after the
 * "\xff Go buildinf:" magic, whose version string follows its 32-byte header, length-prefixed (varint)
 */
async function goVersionOf(file: string): Promise<string> {
  const b = await readFile(file);
  const at = b.indexOf(Buffer.from('\xff Go buildinf:', 'latin1'));
  expect(at, `${file}: no Go build info`).toBeGreaterThanOrEqual(0);
  expect(b[at + 15]! & 2, `${file}: old build info format`).toBe(2);
  let len = 0;
  let p = at + 32;
  for (let shift = 0; ; shift += 7) {
    const byte = b[p++]!;
    len |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  return b.toString('latin1', p, p + len);
}

/** bin runs a binary of the unpacked layer and returns stdout and stderr together */
async function bin(path: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await exec(join(root, path), args, { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' });
  return r.stdout + r.stderr;
}

const binaries = () => components.flatMap((c) => c.binaries.map((b) => ({ c, path: `${c.dest}/${b.name}` })));
const component = (name: string) => components.find((c) => c.name === name)!;
/** the version a tool prints: the tag without its v */
const bare = (name: string) => component(name).version.replace(/^v/, '');

beforeAll(async () => {
  const manifest = await readFile(repo('images/components.yaml'), 'utf8');
  // the components layer's own; Kubernetes' layer has its test (components-kubernetes.test.ts)
  components = parseComponents(manifest).filter((c) => c.layer === DEFAULT_LAYER);
  images = parseImages(manifest).filter((i) => i.layer === DEFAULT_LAYER);
  tmp = await mkdtemp(join(tmpdir(), 'keel-components-test-'));
  layer = join(tmp, 'a.sqsh');
  await buildLayer(layer);
  root = join(tmp, 'root');
  await exec('unsquashfs', ['-no-progress', '-quiet', '-d', root, layer]);
}, BUILD_TIMEOUT);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('components layer', () => {
  it("holds the manifest's binaries where it puts them, its images' archives and packages.txt, nothing else", async () => {
    const archives = images.map((i) => `${IMAGES_DIR}/${i.name}.tar`);
    expect(archives).toContain(`${IMAGES_DIR}/toolbox.tar`);
    expect(await layerFiles(root)).toEqual(
      [...binaries().map((b) => b.path), ...archives, PACKAGES_TXT].sort(),
    );
    for (const { path } of binaries()) expect((await stat(join(root, path))).mode & 0o777, path).toBe(0o755);
    for (const path of archives) expect((await stat(join(root, path))).mode & 0o777, path).toBe(0o644);
  });

  it('etcd, etcdctl and etcdutl report the pinned version', async () => {
    expect(await bin('/usr/bin/etcd', ['--version'])).toMatch(
      new RegExp(`^etcd Version: ${bare('etcd')}$`, 'm'),
    );
    expect(await bin('/usr/bin/etcdctl', ['version'])).toMatch(
      new RegExp(`^etcdctl version: ${bare('etcd')}$`, 'm'),
    );
    expect(await bin('/usr/bin/etcdutl', ['version'])).toMatch(
      new RegExp(`^etcdutl version: ${bare('etcd')}$`, 'm'),
    );
  });

  it('containerd, its shim and ctr report the pinned version', async () => {
    const v = component('containerd').version;
    expect(await bin('/usr/bin/containerd', ['--version'])).toMatch(
      new RegExp(`^containerd github.com/containerd/containerd/v2 ${v} `, 'm'),
    );
    expect(await bin('/usr/bin/ctr', ['--version'])).toMatch(
      new RegExp(`^ctr github.com/containerd/containerd/v2 ${v}$`, 'm'),
    );
    expect(await bin('/usr/bin/containerd-shim-runc-v2', ['-v'])).toMatch(
      new RegExp(`Version:\\s+${v}$`, 'm'),
    );
  });

  it('runc reports the pinned version and has seccomp', async () => {
    expect(await bin('/usr/bin/runc', ['--version'])).toMatch(
      new RegExp(`^runc version ${bare('runc')}$`, 'm'),
    );
    // libseccomp is linked in statically: runc's features say seccomp is there
    const features = JSON.parse(await bin('/usr/bin/runc', ['features'])) as {
      linux?: { seccomp?: { enabled?: boolean } };
    };
    expect(features.linux?.seccomp?.enabled).toBe(true);
  });

  it('every CNI plugin reports the pinned version and answers VERSION', async () => {
    const cni = component('cni-plugins');
    for (const b of cni.binaries) {
      const path = `${cni.dest}/${b.name}`;
      // with no command a plugin prints what it is: the version stamped into buildversion
      expect(await bin(path, [])).toContain(`CNI ${b.name} plugin ${cni.version}`);
      const answer = JSON.parse(await bin(path, [], { CNI_COMMAND: 'VERSION' })) as {
        supportedVersions: string[];
      };
      expect(answer.supportedVersions, path).toContain('1.0.0');
    }
  });

  it('every binary is stripped and static', async () => {
    for (const { path } of binaries()) {
      expect(await sectionNames(join(root, path)), path).not.toContain('.symtab');
      const deps = await readElfDeps(join(root, path));
      expect({ path, interpreter: deps?.interpreter, needed: deps?.needed }).toEqual({
        path,
        interpreter: undefined,
        needed: [],
      });
    }
  });

  it('packages.txt names every component, its version and Go, and each binary with its sha256', async () => {
    const lines = (await readFile(join(root, PACKAGES_TXT), 'utf8'))
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(lines.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      ...components.map((c) => `${c.name} ${c.version}`),
      ...images.map((i) => `${i.name} ${i.ref}`),
    ]);
    for (const [i, c] of components.entries()) {
      const fields = lines[i]!.split(' ').slice(2);
      const kv = new Map(
        fields.filter((f) => !f.startsWith('/')).map((f) => f.split('=', 2) as [string, string]),
      );
      expect(kv.get('go')).toBe(await goVersionOf(join(root, c.dest, c.binaries[0]!.name)));
      expect(kv.get('modules')).toBe(c.modules.join(','));
      expect(kv.has('links')).toBe(c.cgo);
      const sums = fields.filter((f) => f.startsWith('/')).map((f) => f.split('='));
      expect(sums.map(([p]) => p)).toEqual(c.binaries.map((b) => `${c.dest}/${b.name}`));
      for (const [path, sum] of sums) expect(sum, path).toBe(await sha256(join(root, path!)));
    }
    for (const [i, img] of images.entries()) {
      const fields = lines[components.length + i]!.split(' ').slice(2);
      expect(img.source.kind).toBe('busybox');
      if (img.source.kind === 'busybox')
        expect(fields[0]).toBe(`debs=${img.source.deb.package}=${img.source.deb.version}`);
      expect(fields[1]).toMatch(/^digest=sha256:[0-9a-f]{64}$/);
      const path = `${IMAGES_DIR}/${img.name}.tar`;
      expect(fields[2]).toBe(`${path}=${await sha256(join(root, path))}`);
    }
  });

  it(
    'is byte-reproducible',
    async () => {
      const again = join(tmp, 'b.sqsh');
      await buildLayer(again);
      expect(await sha256(again)).toBe(await sha256(layer));
    },
    LAYER_TIMEOUT,
  );
});

describe('etcd of the layer', () => {
  it('serves a put and a get on loopback', async () => {
    const data = await mkdtemp(join(tmpdir(), 'keel-etcd-'));
    const [client, peer] = [await freePort(), await freePort()];
    const clientUrl = `http://127.0.0.1:${client}`;
    const peerUrl = `http://127.0.0.1:${peer}`;
    const etcd: ChildProcess = spawn(
      join(root, 'usr/bin/etcd'),
      [
        '--name=keel-test',
        `--data-dir=${data}`,
        `--listen-client-urls=${clientUrl}`,
        `--advertise-client-urls=${clientUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=keel-test=${peerUrl}`,
        '--log-level=error',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    etcd.stderr!.on('data', (b: Buffer) => {
      log += b.toString();
    });
    const exited = new Promise((resolve) => etcd.once('exit', resolve));
    onTestFinished(async () => {
      etcd.kill('SIGTERM');
      await exited;
      await rm(data, { recursive: true, force: true });
    });

    const ctl = (...args: string[]) => bin('/usr/bin/etcdctl', [`--endpoints=${clientUrl}`, ...args]);
    // etcd answers once it has elected itself; until then the client cannot connect
    const deadline = Date.now() + 20_000;
    for (;;) {
      const up = await ctl('endpoint', 'health', '--command-timeout=1s').then(
        () => true,
        () => false,
      );
      if (up) break;
      if (etcd.exitCode !== null || Date.now() > deadline) throw new Error(`etcd did not come up:\n${log}`);
      await delay(200);
    }
    expect(await ctl('put', 'keel/test', 'hello')).toMatch(/^OK$/m);
    expect(await ctl('get', 'keel/test', '--print-value-only')).toBe('hello\n');
  });
});
