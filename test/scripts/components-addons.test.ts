// The cluster add-ons' parts (images/components.yaml): CoreDNS and flanneld, built from their modules for
// Kubernetes' layer, their images under upstream's names, and flannel's CNI plugin for the components
// layer's /opt/cni/bin. Checked on the cached builds (buildComponent and buildImage build what is not
// cached: cold, about 6 min on 2 cores), not on a layer: each binary says the pinned version, is stripped
// and static; each image holds its binaries where upstream's does, with upstream's config; the plugin
// gives a pod an address from flanneld's lease through the layer's bridge and host-local, in network
// namespaces of its own.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Built, buildComponent } from '../../scripts/components/build.js';
import { type BuiltImage, buildImage } from '../../scripts/components/image.js';
import { type Image, parseImages } from '../../scripts/components/image-manifest.js';
import { type Component, parseComponents } from '../../scripts/components/manifest.js';
import { readImage } from './components/read-image.js';
import { expectStrippedStatic } from './components/stripped-static.js';

const exec = promisify(execFile);
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
/** cold: CoreDNS about 3 min and flanneld about 3 on 2 cores, the plugin 1.5 */
const BUILD_TIMEOUT = 1_200_000;
const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

let tmp = '';
let components: Component[] = [];
let images: Image[] = [];
const builds = new Map<string, Built>();
const built = new Map<string, BuiltImage>();

const component = (name: string) => components.find((c) => c.name === name)!;
const binary = (c: string, b: string) => join(builds.get(c)!.dir, b);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const archive = async (name: string) => {
  const b = built.get(name)!;
  return readFile(join(b.dir, b.info.file));
};

/** freeUdpPort is a loopback UDP port nothing was bound to a moment ago */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** out runs a binary and gives back what it printed, stdout and stderr together, whatever its exit code */
async function out(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await exec(file, args, { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' }).catch(
    (e: { stdout: string; stderr: string }) => e,
  );
  return r.stdout + r.stderr;
}

beforeAll(async () => {
  const manifest = await readFile(repo('images/components.yaml'), 'utf8');
  components = parseComponents(manifest);
  images = parseImages(manifest).filter((i) => i.name === 'coredns' || i.name === 'flannel');
  for (const name of ['flannel-cni', 'cni-plugins', 'coredns', 'flannel'])
    builds.set(name, await buildComponent(component(name)));
  for (const img of images) built.set(img.name, await buildImage(img, { components: builds }));
  tmp = await mkdtemp(join(tmpdir(), 'keel-addons-test-'));
}, BUILD_TIMEOUT);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('CoreDNS', () => {
  it('says the pinned version and the module it was built from, and is stripped and static', async () => {
    const c = component('coredns');
    const file = binary('coredns', 'coredns');
    const version = await out(file, ['-version']);
    expect(version).toMatch(new RegExp(`^CoreDNS-${c.version.replace(/^v/, '')}$`, 'm'));
    // GitCommit carries the module's go.sum hash, as the other components' revisions do
    expect(version).toContain(builds.get('coredns')!.info.modules[0]!.sum);
    await expectStrippedStatic(file);
    expect(builds.get('coredns')!.info).toMatchObject({
      layer: 'kubernetes',
      binaries: [],
      extra: ['coredns'],
    });
  });

  it('answers a query on loopback from a Corefile', async () => {
    const port = await freeUdpPort();
    const corefile = join(tmp, 'Corefile');
    await writeFile(corefile, `.:${port} {\n  bind 127.0.0.1\n  hosts {\n    10.96.0.1 keel.test\n  }\n}\n`);
    const coredns = spawn(binary('coredns', 'coredns'), ['-conf', corefile], { stdio: 'ignore' });
    onTestFinished(() => {
      coredns.kill();
    });
    const resolver = new Resolver({ timeout: 200, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    // it listens within a moment of starting: ask until it answers
    let answer: string[] = [];
    for (const t0 = Date.now(); !answer.length && Date.now() - t0 < 20_000; )
      answer = await resolver.resolve4('keel.test').catch(() => []);
    expect(answer).toEqual(['10.96.0.1']);
  });

  it("is upstream's image: /coredns, its entrypoint, nonroot user and port 53, under its name", async () => {
    const a = readImage(await archive('coredns'));
    expect(a.names).toEqual([`registry.k8s.io/coredns/coredns:${component('coredns').version}`]);
    expect([...a.files.keys()]).toEqual(['coredns']);
    const bin = a.files.get('coredns')!;
    expect(bin.mode).toBe(0o755);
    expect(sha256(bin.data)).toBe(sha256(await readFile(binary('coredns', 'coredns'))));
    expect(a.config).toEqual({
      User: '65532:65532',
      ExposedPorts: { '53/tcp': {}, '53/udp': {} },
      Env: [PATH_ENV],
      Entrypoint: ['/coredns'],
      WorkingDir: '/',
    });
  });
});

describe('flannel', () => {
  it('flanneld and install-conf say the pinned version, and are stripped and static', async () => {
    const c = component('flannel');
    expect((await out(binary('flannel', 'flanneld'), ['--version'])).trim()).toBe(c.version);
    for (const b of ['flanneld', 'install-conf']) await expectStrippedStatic(binary('flannel', b));
    expect(builds.get('flannel')!.info).toMatchObject({
      layer: 'kubernetes',
      binaries: [],
      extra: ['flanneld', 'install-conf'],
    });
  });

  it('install-conf puts the CNI config in place, as the init container of upstream manifest runs it', async () => {
    const src = join(tmp, 'cni-conf.json');
    await writeFile(src, '{"name":"cbr0"}\n');
    await mkdir(join(tmp, 'net.d'));
    await exec(binary('flannel', 'install-conf'), [src, join(tmp, 'net.d/10-flannel.conflist')]);
    expect(await readFile(join(tmp, 'net.d/10-flannel.conflist'), 'utf8')).toBe('{"name":"cbr0"}\n');
  });

  it("is upstream's image: both binaries in /opt/bin, flanneld the entrypoint, under Talos' and flannel's names", async () => {
    const v = component('flannel').version;
    const a = readImage(await archive('flannel'));
    expect(a.names).toEqual([`ghcr.io/siderolabs/flannel:${v}`, `ghcr.io/flannel-io/flannel:${v}`]);
    expect(new Set(a.digests).size).toBe(1);
    // beside the netfilter base, which components-netfilter.test.ts checks
    expect([...a.files.keys()].filter((p) => p.startsWith('opt/'))).toEqual([
      'opt/',
      'opt/bin/',
      'opt/bin/flanneld',
      'opt/bin/install-conf',
    ]);
    for (const b of ['flanneld', 'install-conf']) {
      const f = a.files.get(`opt/bin/${b}`)!;
      expect(f.mode, b).toBe(0o755);
      expect(sha256(f.data), b).toBe(sha256(await readFile(binary('flannel', b))));
    }
    expect(a.config).toEqual({ Env: [PATH_ENV], Entrypoint: ['/opt/bin/flanneld'] });
  });

  it('the images are the same bytes from a cold cache', async () => {
    for (const img of images) {
      const again = await buildImage(img, { cache: join(tmp, 'cache'), components: builds });
      expect(again.hit, img.name).toBe(false);
      expect((await readFile(join(again.dir, again.info.file))).equals(await archive(img.name))).toBe(true);
    }
  });
});

describe("flannel's CNI plugin", () => {
  it('says the pinned version and the CNI versions it speaks, and is stripped and static', async () => {
    const c = component('flannel-cni');
    expect(c).toMatchObject({ layer: 'components', dest: '/opt/cni/bin' });
    const file = binary('flannel-cni', 'flannel');
    expect(await out(file, [])).toContain(`CNI flannel plugin ${c.version}`);
    // not 1.0.0: a network config naming it must say 0.3.1 (as flannel's own manifest does) or 0.4.0
    expect(JSON.parse(await out(file, [], { CNI_COMMAND: 'VERSION' })).supportedVersions).toEqual([
      '0.1.0',
      '0.2.0',
      '0.3.0',
      '0.3.1',
      '0.4.0',
    ]);
    await expectStrippedStatic(file);
  });

  it('refuses a network config of CNI 1.0.0 before doing anything', async () => {
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const p = spawn(binary('flannel-cni', 'flannel'), [], {
        env: {
          CNI_COMMAND: 'ADD',
          CNI_CONTAINERID: 'addons-test',
          CNI_NETNS: '/nonexistent',
          CNI_IFNAME: 'eth0',
          CNI_PATH: '/nonexistent',
        },
      });
      let stdout = '';
      p.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      p.on('close', (code) => resolve({ code, stdout }));
      p.stdin.end(JSON.stringify({ cniVersion: '1.0.0', name: 'cbr0', type: 'flannel' }));
    });
    expect(r.code).not.toBe(0);
    expect(JSON.parse(r.stdout).msg).toBe('incompatible CNI versions');
  });

  it("gives a pod an address of flanneld's lease through bridge and host-local", async () => {
    // the bridge goes in a namespace standing for the node, the pod's end in another: the host is untouched
    const node = `keel-flannel-node-${process.pid}`;
    const pod = `keel-flannel-pod-${process.pid}`;
    const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8' });
    ip('netns', 'add', node);
    onTestFinished(() => {
      ip('netns', 'del', node);
    });
    ip('netns', 'add', pod);
    onTestFinished(() => {
      ip('netns', 'del', pod);
    });

    const dir = await mkdtemp(join(tmp, 'cni-'));
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await symlink(binary('flannel-cni', 'flannel'), join(bin, 'flannel'));
    for (const p of ['bridge', 'host-local']) await symlink(binary('cni-plugins', p), join(bin, p));
    // what flanneld --ip-masq writes: it masquerades itself, so the bridge must not
    await writeFile(
      join(dir, 'subnet.env'),
      'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.3.1/24\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n',
    );
    // flannel's network config (Documentation/kube-flannel.yml), its state kept in the test's directory
    const conf = JSON.stringify({
      cniVersion: '0.3.1',
      name: 'cbr0',
      type: 'flannel',
      subnetFile: join(dir, 'subnet.env'),
      dataDir: join(dir, 'flannel'),
      ipam: { dataDir: join(dir, 'ipam') },
      delegate: { hairpinMode: true, isDefaultGateway: true },
    });
    const cni = (command: string) =>
      execFileSync('ip', ['netns', 'exec', node, binary('flannel-cni', 'flannel')], {
        input: conf,
        encoding: 'utf8',
        env: {
          PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
          CNI_COMMAND: command,
          CNI_CONTAINERID: 'addons-test',
          CNI_NETNS: `/run/netns/${pod}`,
          CNI_IFNAME: 'eth0',
          CNI_PATH: bin,
        },
      });

    const result = JSON.parse(cni('ADD')) as { ips: { address: string; gateway: string }[] };
    expect(result.ips).toMatchObject([{ address: '10.244.3.2/24', gateway: '10.244.3.1' }]);
    const link = JSON.parse(ip('-n', pod, '-j', 'addr', 'show', 'eth0'))[0];
    expect(link.mtu).toBe(1450);
    expect(link.addr_info.map((a: { local: string }) => a.local)).toContain('10.244.3.2');
    const routes = JSON.parse(ip('-n', pod, '-j', 'route'));
    expect(routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ dst: 'default', gateway: '10.244.3.1' }),
        expect.objectContaining({ dst: '10.244.0.0/16', gateway: '10.244.3.1' }),
      ]),
    );
    const bridge = JSON.parse(ip('-n', node, '-j', 'addr', 'show', 'cni0'))[0];
    expect(bridge.addr_info.map((a: { local: string }) => a.local)).toContain('10.244.3.1');

    cni('DEL');
    expect(JSON.parse(ip('-n', pod, '-j', 'link'))).toEqual([expect.objectContaining({ ifname: 'lo' })]);
  });
});
