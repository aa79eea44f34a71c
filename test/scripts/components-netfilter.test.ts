// The netfilter base of kube-proxy's and flannel's images (images/components.yaml): Debian 12's iptables
// on its nf_tables backend and nftables' nft, with every library they need. Checked on the cached builds
// (buildComponent and buildImage build what is not cached: Kubernetes cold is about 10 min on 2 cores):
// each image holds the programs under the names kube-proxy and flanneld run, on its PATH, and every
// library a DT_NEEDED names, which the image's own loader finds; unpacked and chrooted into inside a
// network namespace of its own, the programs list, add, restore and save rules, the host's left untouched.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Built, buildComponent } from '../../scripts/components/build.js';
import { buildImage } from '../../scripts/components/image.js';
import { parseImages } from '../../scripts/components/image-manifest.js';
import { parseComponents } from '../../scripts/components/manifest.js';
import { readElfDeps } from '../../scripts/rootfs/elf.js';
import { type ImageRead, readImage } from './components/read-image.js';
import { unpackImage } from './components/unpack-image.js';

const exec = promisify(execFile);
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
/** cold: Kubernetes about 10 min, flanneld about 3, on 2 cores; the images from them seconds */
const BUILD_TIMEOUT = 1_200_000;
const IMAGES = ['kube-proxy', 'flannel'];
/** the names go-iptables, kube-proxy and knftables run */
const IPTABLES = [
  'iptables',
  'iptables-save',
  'iptables-restore',
  'ip6tables',
  'ip6tables-save',
  'ip6tables-restore',
];
/** where Debian's loader looks without an ld.so.cache */
const LIBRARY_DIRS = ['lib/x86_64-linux-gnu', 'usr/lib/x86_64-linux-gnu'];

let tmp = '';
const read = new Map<string, ImageRead>();
const roots = new Map<string, string>();

beforeAll(async () => {
  const manifest = await readFile(repo('images/components.yaml'), 'utf8');
  const components = parseComponents(manifest);
  const builds = new Map<string, Built>();
  for (const name of ['kubernetes', 'flannel'])
    builds.set(name, await buildComponent(components.find((c) => c.name === name)!));
  tmp = await mkdtemp(join(tmpdir(), 'keel-netfilter-test-'));
  for (const img of parseImages(manifest).filter((i) => IMAGES.includes(i.name))) {
    const b = await buildImage(img, { components: builds });
    const image = readImage(await readFile(join(b.dir, b.info.file)));
    read.set(img.name, image);
    const root = join(tmp, img.name);
    await unpackImage(image, root);
    roots.set(img.name, root);
  }
}, BUILD_TIMEOUT);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** onPath finds `name` in the image's PATH and follows its links inside the image, to a file */
async function onPath(name: string, root: string, env: string[]): Promise<string | undefined> {
  const dirs = env
    .find((e) => e.startsWith('PATH='))!
    .slice('PATH='.length)
    .split(':');
  for (const dir of dirs) {
    let p = posix.join(dir, name);
    for (let hops = 0; hops < 10; hops++) {
      const target = await readlink(join(root, p)).catch(() => undefined);
      if (target === undefined) break;
      p = posix.resolve(posix.dirname(p), target);
    }
    if ((await stat(join(root, p)).catch(() => undefined))?.isFile()) return p;
  }
  return undefined;
}

/** elfFiles lists the image's dynamically linked files (programs and libraries), as paths in it */
async function elfFiles(root: string, dir = '/'): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, dir), { withFileTypes: true })) {
    const p = posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await elfFiles(root, p)));
    else if (e.isFile() && (await readElfDeps(join(root, p)))?.needed.length) out.push(p);
  }
  return out;
}

describe.each(IMAGES)('the netfilter base of %s', (name) => {
  it('puts iptables (nf_tables), its IPv6, save and restore names, and nft on the PATH', async () => {
    const root = roots.get(name)!;
    const env = read.get(name)!.config.Env as string[];
    for (const n of [...IPTABLES, 'iptables-nft', 'ip6tables-nft'])
      expect(await onPath(n, root, env), n).toBe('/usr/sbin/xtables-nft-multi');
    expect(await onPath('nft', root, env)).toBe('/usr/sbin/nft');
    const { stdout } = await exec('chroot', [root, 'iptables', '--version'], { encoding: 'utf8' });
    expect(stdout).toMatch(/^iptables v1\.8\.\d+ \(nf_tables\)$/m);
  });

  it('holds every library each DT_NEEDED names, recursively, and its loader finds them', async () => {
    const root = roots.get(name)!;
    const files = await elfFiles(root);
    expect(files).toEqual(
      expect.arrayContaining([
        '/usr/sbin/xtables-nft-multi',
        '/usr/sbin/nft',
        '/lib/x86_64-linux-gnu/libc.so.6',
      ]),
    );
    for (const f of files) {
      const deps = (await readElfDeps(join(root, f)))!;
      if (deps.interpreter) expect(await stat(join(root, deps.interpreter)), f).toBeTruthy();
      for (const lib of deps.needed) {
        const at = await Promise.all(
          LIBRARY_DIRS.map((d) =>
            stat(join(root, d, lib)).then(
              () => true,
              () => false,
            ),
          ),
        );
        expect(at.some(Boolean), `${f} needs ${lib}`).toBe(true);
      }
    }
    // the loader's own lookup, not ours: every program and plugin with everything it pulls in
    for (const f of files.filter((f) => !f.includes('/lib/x86_64-linux-gnu/lib'))) {
      const { stdout } = await exec('chroot', [root, '/lib64/ld-linux-x86-64.so.2', '--list', f], {
        encoding: 'utf8',
      });
      expect(stdout, f).not.toContain('not found');
    }
  });
});

describe('the netfilter base', () => {
  it('is the same files in both images, beside what each is made of', () => {
    const [proxy, flannel] = IMAGES.map((n) => read.get(n)!.files);
    const base = [...flannel!.keys()].filter((p) => !p.startsWith('opt/'));
    expect(base).toEqual([...proxy!.keys()].filter((p) => !p.startsWith('usr/local/')));
    for (const p of base) expect(flannel!.get(p)!.data.equals(proxy!.get(p)!.data), p).toBe(true);
  });

  it.each(IMAGES)('programs rules in a network namespace of its own from %s', async (name) => {
    const root = roots.get(name)!;
    const ns = `keel-netfilter-${name}-${process.pid}`;
    await exec('ip', ['netns', 'add', ns]);
    onTestFinished(async () => {
      await exec('ip', ['netns', 'del', ns]);
    });
    const run = async (args: string[], input?: string) => {
      const p = exec('ip', ['netns', 'exec', ns, 'chroot', root, ...args], { encoding: 'utf8' });
      if (input !== undefined) p.child.stdin!.end(input);
      return (await p).stdout;
    };

    expect(await run(['iptables', '-t', 'nat', '-L', '-n'])).toContain('Chain POSTROUTING (policy ACCEPT)');
    // flanneld's masquerading rule, and a forwarding one for IPv6
    await run([
      'iptables-nft',
      '-t',
      'nat',
      '-A',
      'POSTROUTING',
      '-s',
      '10.244.0.0/16',
      '!',
      '-d',
      '224.0.0.0/4',
      '-m',
      'comment',
      '--comment',
      'flanneld masq',
      '-j',
      'MASQUERADE',
      '--random-fully',
    ]);
    await run(['ip6tables', '-A', 'FORWARD', '-s', 'fd00:10:244::/56', '-j', 'ACCEPT']);
    // as go-iptables and kube-proxy restore a chain of their own
    await run(
      ['iptables-restore', '--noflush'],
      '*filter\n:FLANNEL-FWD - [0:0]\n-A FLANNEL-FWD -s 10.244.0.0/16 -j ACCEPT\nCOMMIT\n',
    );
    const saved = await run(['iptables-save']);
    expect(saved).toContain(
      '-A POSTROUTING -s 10.244.0.0/16 ! -d 224.0.0.0/4 -m comment --comment "flanneld masq" -j MASQUERADE --random-fully',
    );
    expect(saved).toContain('-A FLANNEL-FWD -s 10.244.0.0/16 -j ACCEPT');
    expect(await run(['ip6tables-save'])).toContain('-A FORWARD -s fd00:10:244::/56 -j ACCEPT');
    // kube-proxy's nftables mode: knftables writes a transaction to nft -f -
    await run(['nft', '-f', '-'], 'add table inet kube-proxy\nadd chain inet kube-proxy services\n');
    const ruleset = await run(['nft', 'list', 'ruleset']);
    expect(ruleset).toContain('table ip nat {');
    expect(ruleset).toMatch(
      /ip saddr 10\.244\.0\.0\/16 ip daddr != 224\.0\.0\.0\/4 .*masquerade fully-random/,
    );
    expect(ruleset).toContain('table inet kube-proxy {');
    expect(ruleset).toContain('chain services {');
  });
});
