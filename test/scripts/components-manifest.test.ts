// images/components.yaml as scripts/components/manifest.ts reads it: the real manifest passes, and a typo
// fails with the key named instead of dropping a binary.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execName } from '../../scripts/components/build.js';
import { ldflagsOf, parseComponents } from '../../scripts/components/manifest.js';

const manifest = readFileSync(
  fileURLToPath(new URL('../../images/components.yaml', import.meta.url)),
  'utf8',
);

const one = (entry: string) =>
  `components:\n  c:\n    version: v1.0.0\n    modules: [example.com/m]\n${entry}`;

describe('components manifest', () => {
  it('reads the real manifest: etcd, containerd, runc and the CNI plugins, then Kubernetes and the add-ons', () => {
    const cs = parseComponents(manifest);
    expect(cs.map((c) => c.name)).toEqual([
      'etcd',
      'containerd',
      'runc',
      'cni-plugins',
      'flannel-cni',
      'kubernetes',
      'coredns',
      'flannel',
    ]);
    expect(cs.map((c) => c.layer)).toEqual([
      'components',
      'components',
      'components',
      'components',
      'components',
      'kubernetes',
      'kubernetes',
      'kubernetes',
    ]);
    // the add-ons' binaries are their images' alone
    expect(cs.slice(6).flatMap((c) => c.binaries.filter((b) => b.ship))).toEqual([]);
    const etcd = cs[0]!.binaries.find((b) => b.name === 'etcd')!;
    expect(etcd).toMatchObject({ main: true, package: 'go.etcd.io/etcd/server/v3/etcdmain' });
    const shim = cs[1]!.binaries.find((b) => b.name === 'containerd-shim-runc-v2')!;
    expect(shim).toMatchObject({
      package: 'github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2',
      tags: ['urfave_cli_no_docs', 'no_grpc'],
    });
    expect(cs[2]!.binaries[0]!.package).toBe('github.com/opencontainers/runc');
    for (const b of [
      'bridge',
      'host-local',
      'loopback',
      'portmap',
      'ptp',
      'firewall',
      'bandwidth',
      'host-device',
    ])
      expect(cs[3]!.binaries.map((x) => x.name)).toContain(b);
  });

  it('builds Kubernetes with its staging modules at the matching v0, and ships the kubelet alone', () => {
    const k = parseComponents(manifest).find((c) => c.name === 'kubernetes')!;
    expect(k.modules).toEqual(['k8s.io/kubernetes']);
    // k8s.io/kubernetes v1.X.Y goes with k8s.io/api (and every staging module) v0.X.Y
    expect(k.replaceLocal).toBe(k.version.replace(/^v1\./, 'v0.'));
    expect(k.binaries.filter((b) => b.ship).map((b) => b.name)).toEqual(['kubelet']);
    expect(k.binaries.map((b) => b.name).sort()).toEqual([
      'kube-apiserver',
      'kube-controller-manager',
      'kube-proxy',
      'kube-scheduler',
      'kubectl',
      'kubelet',
    ]);
    const ld = ldflagsOf(k, 'h1:abc=');
    for (const [key, value] of [
      ['gitVersion', k.version],
      ['gitMajor', '1'],
      ['gitMinor', k.version.split('.')[1]!],
      ['gitCommit', 'h1:abc='],
      ['gitTreeState', 'clean'],
      ['buildDate', '1970-01-01T00:00:00Z'],
    ])
      expect(ld).toContain(`-X k8s.io/component-base/version.${key}=${value} `);
  });

  it('fills {version}, {major}, {minor} and {sum} in, on one line', () => {
    expect(
      ldflagsOf({ version: 'v1.34.4', ldflags: '-X a={version}\n  -X b={major}.{minor} -X c={sum}' }, 'h1:x'),
    ).toBe('-X a=v1.34.4 -X b=1.34 -X c=h1:x');
  });

  it('leaves a binary out of the layer, and lets it share a path with one that ships', () => {
    const [c] = parseComponents(
      `${one('    dest: /usr/bin\n    binaries: { a: cmd/a, b: { package: cmd/b, ship: false } }\n')}  d:\n    version: v1.0.0\n    modules: [example.com/d]\n    dest: /usr/bin\n    binaries: { b: . }\n`,
    );
    expect(c!.binaries.map((b) => [b.name, b.ship])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it.each([
    [
      'an unknown key',
      one('    dest: /usr/bin\n    tag: [x]\n    binaries: { a: . }\n'),
      "unknown key 'tag'",
    ],
    ['a relative dest', one('    dest: usr/bin\n    binaries: { a: . }\n'), 'dest: must be an absolute'],
    [
      'an unknown placeholder',
      one('    dest: /usr/bin\n    ldflags: -X a.B={commit}\n    binaries: { a: . }\n'),
      '{commit}',
    ],
    [
      'flags set anyway',
      one('    dest: /usr/bin\n    ldflags: -s -X a.B=1\n    binaries: { a: . }\n'),
      'always set',
    ],
    [
      'debs without cgo',
      one('    dest: /usr/bin\n    debs: [libfoo-dev]\n    binaries: { a: . }\n'),
      'only a cgo build',
    ],
    [
      'a bad replaceLocal',
      one('    dest: /usr/bin\n    replaceLocal: latest\n    binaries: { a: . }\n'),
      'replaceLocal: must be a module version',
    ],
    [
      'a ship that is not a boolean',
      one('    dest: /usr/bin\n    binaries: { a: { package: ., ship: no } }\n'),
      'ship: must be true or false',
    ],
    ['no binaries', one('    dest: /usr/bin\n    binaries: {}\n'), 'binaries: must be a non-empty'],
    ['a bad package', one('    dest: /usr/bin\n    binaries: { a: ../x }\n'), 'is not a package path'],
    [
      'two binaries at one path',
      `${one('    dest: /usr/bin\n    binaries: { a: . }\n')}  d:\n    version: v1.0.0\n    modules: [example.com/d]\n    dest: /usr/bin\n    binaries: { a: . }\n`,
      '/usr/bin/a is also built by c',
    ],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseComponents(text, 'm.yaml')).toThrow(message);
  });

  it('names packages relative to the first module unless their first element has a dot', () => {
    const [c] = parseComponents(
      one('    dest: /usr/bin\n    binaries: { a: cmd/a, b: other.org/b/v2, c: . }\n'),
    );
    expect(c!.binaries.map((b) => b.package)).toEqual([
      'example.com/m/cmd/a',
      'other.org/b/v2',
      'example.com/m',
    ]);
  });

  it('names an executable as go build does, skipping a major-version suffix', () => {
    expect(execName('go.etcd.io/etcd/etcdctl/v3')).toBe('etcdctl');
    expect(execName('github.com/containerd/containerd/v2/cmd/ctr')).toBe('ctr');
    expect(execName('github.com/opencontainers/runc')).toBe('runc');
  });
});
