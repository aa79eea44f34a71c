// images/components.yaml as scripts/components/manifest.ts reads it: the real manifest passes, and a typo
// fails with the key named instead of dropping a binary.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execName } from '../../scripts/components/build.js';
import { parseComponents } from '../../scripts/components/manifest.js';

const manifest = readFileSync(
  fileURLToPath(new URL('../../images/components.yaml', import.meta.url)),
  'utf8',
);

const one = (entry: string) =>
  `components:\n  c:\n    version: v1.0.0\n    modules: [example.com/m]\n${entry}`;

describe('components manifest', () => {
  it('reads the real manifest: etcd, containerd, runc and the CNI plugins', () => {
    const cs = parseComponents(manifest);
    expect(cs.map((c) => c.name)).toEqual(['etcd', 'containerd', 'runc', 'cni-plugins']);
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
