// The images of images/components.yaml as scripts/components/image-manifest.ts reads them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseImages, tagOfDebVersion } from '../../../scripts/components/image-manifest.js';
import { parseComponents } from '../../../scripts/components/manifest.js';

const manifest = readFileSync(
  fileURLToPath(new URL('../../../images/components.yaml', import.meta.url)),
  'utf8',
);
const one = (entry: string) => `components: {}\nimages:\n  t:\n${entry}`;
/** two components, c and d, each building a (in its own directory), and an image t to make of them */
const two = `components:
  c: { version: v1.0.0, modules: [example.com/c], dest: /usr/c, binaries: { a: . } }
  d: { version: v1.0.0, modules: [example.com/d], dest: /usr/d, binaries: { a: . } }
images:
  t:
    repository: keel.dev/t
`;
const debOf = (p: string) => `{ package: ${p}, version: "1.0-1", sha256: ${'b'.repeat(64)} }`;
const deb = '    busybox: { package: busybox-static, version: "1:1.0-1", sha256: ' + `${'a'.repeat(64)} }\n`;

describe('images of the components manifest', () => {
  it('reads the toolbox, named from its pinned busybox, beside the components', () => {
    const [toolbox] = parseImages(manifest);
    expect(toolbox).toMatchObject({
      name: 'toolbox',
      ref: 'keel.dev/toolbox:1.35.0-4-deb12u1-b1',
      aliases: [],
      layer: 'components',
      source: { kind: 'busybox', deb: { package: 'busybox-static', version: '1:1.35.0-4+deb12u1+b1' } },
      config: { cmd: ['/bin/sh'], workingDir: '/' },
    });
    expect(parseComponents(manifest).length).toBeGreaterThan(0);
  });

  it("reads Kubernetes' images: pause under both names, the server images tagged by the version", () => {
    const images = parseImages(manifest).filter((i) => i.layer === 'kubernetes');
    const version = parseComponents(manifest).find((c) => c.name === 'kubernetes')!.version;
    expect(images.map((i) => i.ref)).toEqual([
      'registry.k8s.io/pause:3.10.1',
      `registry.k8s.io/kube-apiserver:${version}`,
      `registry.k8s.io/kube-controller-manager:${version}`,
      `registry.k8s.io/kube-scheduler:${version}`,
      `registry.k8s.io/kube-proxy:${version}`,
      expect.stringMatching(/^registry\.k8s\.io\/coredns\/coredns:v1\.\d+\.\d+$/),
      expect.stringMatching(/^ghcr\.io\/siderolabs\/flannel:v0\.\d+\.\d+$/),
    ]);
    const [pause, apiserver] = images;
    // kubeadm's name for v1.34, and containerd v2.4.2's default sandbox image
    expect(pause!.aliases).toEqual(['registry.k8s.io/pause:3.10.2']);
    expect(pause!.config).toMatchObject({ entrypoint: ['/pause'], user: '65535:65535' });
    expect(apiserver!.source).toEqual({
      kind: 'binary',
      component: 'kubernetes',
      files: [{ binary: 'kube-apiserver', path: '/usr/local/bin/kube-apiserver' }],
    });
    expect(apiserver!.config.entrypoint).toBeUndefined();
  });

  it('gives kube-proxy and flannel one netfilter base: pinned packages, the programs and their names', () => {
    const images = parseImages(manifest);
    const [proxy, flannel] = ['kube-proxy', 'flannel'].map((n) => images.find((i) => i.name === n)!);
    expect(proxy!.base).toBeDefined();
    expect(flannel!.base).toEqual(proxy!.base);
    const base = proxy!.base!;
    expect(base.debs.map((d) => d.package)).toEqual(
      expect.arrayContaining(['iptables', 'nftables', 'libc6']),
    );
    expect(base.files).toEqual(
      expect.arrayContaining(['/usr/sbin/nft', '/usr/lib/x86_64-linux-gnu/xtables']),
    );
    expect(base.links).toEqual(
      expect.arrayContaining([{ path: '/usr/sbin/iptables', target: 'xtables-nft-multi' }]),
    );
    // the other images have none, so their bytes stay what they were
    expect(images.filter((i) => i.base).map((i) => i.name)).toEqual(['kube-proxy', 'flannel']);
    expect(Object.keys(images.find((i) => i.name === 'coredns')!)).not.toContain('base');
  });

  it('makes a tag of a Debian version', () => {
    expect(tagOfDebVersion('1:1.35.0-4+deb12u1+b1')).toBe('1.35.0-4-deb12u1-b1');
    expect(tagOfDebVersion('2.0~rc1-3')).toBe('2.0-rc1-3');
  });

  it.each([
    ['an unknown key', one(`    repository: keel.dev/t\n${deb}    entry: [/x]\n`), "unknown key 'entry'"],
    ['a repository without a host', one(`    repository: t\n${deb}`), 'repository: must be'],
    [
      'a version YAML reads as a number',
      one('    repository: keel.dev/t\n    busybox: { package: bb, version: 1.0, sha256: x }\n'),
      'busybox.version',
    ],
    [
      'a deb without its sha256',
      one('    repository: keel.dev/t\n    busybox: { package: busybox, version: "1.0" }\n'),
      'busybox.sha256',
    ],
    [
      'two sources',
      one(`    repository: keel.dev/t\n${deb}    pause: { component: c, tag: "1" }\n`),
      'one of busybox, binary, pause',
    ],
    [
      'a binary no component builds',
      `components:\n  c:\n    version: v1.0.0\n    modules: [example.com/m]\n    dest: /usr/bin\n    binaries: { a: . }\nimages:\n  t:\n    repository: keel.dev/t\n    binary: { component: c, name: b }\n`,
      "c builds no binary 'b'",
    ],
    [
      'binaries of two components',
      `${two}    binary: [{ component: c, name: a }, { component: d, name: a, path: /a }]\n`,
      'come from one component',
    ],
    ['a relative path', `${two}    binary: { component: c, name: a, path: bin/a }\n`, 'absolute file path'],
    [
      'a path listed twice',
      `${two}    binary: [{ component: c, name: a, path: /a }, { component: c, name: a, path: /a }]\n`,
      '/a is listed twice',
    ],
    [
      'a base without packages',
      one(`    repository: keel.dev/t\n${deb}    base: { debs: [], files: [/x] }\n`),
      'base.debs: must list',
    ],
    [
      'a base package listed twice',
      one(
        `    repository: keel.dev/t\n${deb}    base:\n      debs: [${debOf('pk')}, ${debOf('pk')}]\n      files: [/x]\n`,
      ),
      'pk is listed twice',
    ],
    [
      'a relative base file',
      one(`    repository: keel.dev/t\n${deb}    base: { debs: [${debOf('pk')}], files: [x] }\n`),
      "'x' is not an absolute path",
    ],
    [
      'a base link going up',
      one(
        `    repository: keel.dev/t\n${deb}    base: { debs: [${debOf('pk')}], files: [/x], links: { /a/../b: x } }\n`,
      ),
      "'/a/../b' is not an absolute path",
    ],
    ['a bad port', one(`    repository: keel.dev/t\n${deb}    ports: [53/icmp]\n`), "'53/icmp' is not port"],
    ['a bad alias', one(`    repository: keel.dev/t\n${deb}    aliases: [t]\n`), "'t' is not a reference"],
    ['a bad env', one(`    repository: keel.dev/t\n${deb}    env: [PATH]\n`), "'PATH' is not KEY=VALUE"],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseImages(text, 'm.yaml')).toThrow(message);
  });

  it('lets the components be read beside the images, and nothing else at the top', () => {
    expect(() => parseComponents(`${one(`    repository: keel.dev/t\n${deb}`)}`)).toThrow(
      'name at least one',
    );
    expect(() => parseComponents('components: {}\nother: 1\n')).toThrow('top level');
  });
});
