import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ComponentsError } from '../../../scripts/components/errors.js';
import {
  MEDIA_CONFIG,
  MEDIA_LAYER,
  MEDIA_MANIFEST,
  type OciArchiveInput,
  ociArchive,
  tagOf,
} from '../../../scripts/components/oci-archive.js';
import { readTar } from './read-tar.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

const input: OciArchiveInput = {
  name: 'keel.dev/toolbox:v1.2.3',
  arch: 'amd64',
  layer: [
    { path: '/bin/busybox', type: 'file', mode: 0o755, content: Buffer.from('#!busybox\n') },
    { path: '/bin/sh', type: 'symlink', target: 'busybox' },
    { path: '/usr/bin/awk', type: 'symlink', target: '/bin/busybox' },
    { path: '/tmp', type: 'directory', mode: 0o1777 },
    { path: '/etc/passwd', type: 'file', mode: 0o644, content: Buffer.from('root:x:0:0::/root:/bin/sh\n') },
  ],
  config: { cmd: ['/bin/sh'], env: ['PATH=/usr/bin:/bin'], workingDir: '/' },
};

describe('ociArchive', () => {
  it('gives the same bytes for the same image, whatever the order of its files', () => {
    const a = ociArchive(input);
    const b = ociArchive({ ...input, layer: [...input.layer].reverse() });
    expect(b.tar.equals(a.tar)).toBe(true);
    expect(ociArchive({ ...input, name: 'keel.dev/toolbox:v2' }).tar.equals(a.tar)).toBe(false);
  });

  it('names every blob by its digest, and index → manifest → config and layer agree', () => {
    const a = ociArchive(input);
    const entries = readTar(a.tar);
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect(entries.map((e) => e.name)).toEqual([
      'blobs/',
      'blobs/sha256/',
      ...[a.configDigest, a.layerDigest, a.manifestDigest].map((d) => `blobs/sha256/${d.slice(7)}`).sort(),
      'index.json',
      'oci-layout',
    ]);
    for (const e of entries) {
      expect(e.uid).toBe(0);
      expect(e.mtime).toBe(0);
      if (e.name.startsWith('blobs/sha256/') && e.type === '0')
        expect(sha(e.data).slice(7)).toBe(e.name.slice(13));
    }
    const blob = (d: string) => byName.get(`blobs/sha256/${d.slice(7)}`)!.data;
    expect(JSON.parse(byName.get('oci-layout')!.data.toString())).toEqual({ imageLayoutVersion: '1.0.0' });

    const index = JSON.parse(byName.get('index.json')!.data.toString());
    expect(index.manifests).toHaveLength(1);
    const m0 = index.manifests[0];
    expect(m0).toMatchObject({ mediaType: MEDIA_MANIFEST, digest: a.manifestDigest });
    expect(m0.size).toBe(blob(a.manifestDigest).length);
    expect(m0.annotations).toEqual({
      'io.containerd.image.name': 'keel.dev/toolbox:v1.2.3',
      'org.opencontainers.image.ref.name': 'v1.2.3',
    });
    expect(m0.platform).toEqual({ architecture: 'amd64', os: 'linux' });

    const manifest = JSON.parse(blob(a.manifestDigest).toString());
    expect(manifest.config).toEqual({
      mediaType: MEDIA_CONFIG,
      digest: a.configDigest,
      size: blob(a.configDigest).length,
    });
    expect(manifest.layers).toEqual([
      { mediaType: MEDIA_LAYER, digest: a.layerDigest, size: blob(a.layerDigest).length },
    ]);
    const config = JSON.parse(blob(a.configDigest).toString());
    expect(config).toEqual({
      architecture: 'amd64',
      os: 'linux',
      config: { Env: ['PATH=/usr/bin:/bin'], Cmd: ['/bin/sh'], WorkingDir: '/' },
      rootfs: { type: 'layers', diff_ids: [a.layerDigest] },
    });
  });

  it('names one image under its aliases too, with its user, and refuses an alias that repeats a name', () => {
    const a = ociArchive({
      ...input,
      aliases: ['registry.k8s.io/pause:3.10.2'],
      config: { entrypoint: ['/pause'], user: '65535:65535' },
    });
    const byName = new Map(readTar(a.tar).map((e) => [e.name, e]));
    const index = JSON.parse(byName.get('index.json')!.data.toString());
    expect(
      index.manifests.map((m: { digest: string; annotations: Record<string, string> }) => [
        m.digest,
        m.annotations['io.containerd.image.name'],
        m.annotations['org.opencontainers.image.ref.name'],
      ]),
    ).toEqual([
      [a.manifestDigest, input.name, 'v1.2.3'],
      [a.manifestDigest, 'registry.k8s.io/pause:3.10.2', '3.10.2'],
    ]);
    const config = JSON.parse(byName.get(`blobs/sha256/${a.configDigest.slice(7)}`)!.data.toString());
    expect(config.config).toEqual({ User: '65535:65535', Entrypoint: ['/pause'] });
    expect(() => ociArchive({ ...input, aliases: [input.name] })).toThrow('repeats');
  });

  it('exposes ports as EXPOSE writes them, a bare number as tcp', () => {
    const a = ociArchive({ ...input, config: { ports: ['53/udp', '53', '9153/tcp'] } });
    const byName = new Map(readTar(a.tar).map((e) => [e.name, e]));
    const config = JSON.parse(byName.get(`blobs/sha256/${a.configDigest.slice(7)}`)!.data.toString());
    expect(config.config).toEqual({ ExposedPorts: { '53/tcp': {}, '53/udp': {}, '9153/tcp': {} } });
    expect(Object.keys(config.config.ExposedPorts)).toEqual(['53/tcp', '53/udp', '9153/tcp']);
  });

  it('lays the layer out parents first, owned by root at time 0, with the modes and links given', () => {
    const a = ociArchive(input);
    const outer = new Map(readTar(a.tar).map((e) => [e.name, e]));
    const layer = readTar(outer.get(`blobs/sha256/${a.layerDigest.slice(7)}`)!.data);
    expect(layer.map((e) => [e.name, e.type, e.mode.toString(8), e.linkname])).toEqual([
      ['bin/', '5', '755', ''],
      ['bin/busybox', '0', '755', ''],
      ['bin/sh', '2', '777', 'busybox'],
      ['etc/', '5', '755', ''],
      ['etc/passwd', '0', '644', ''],
      ['tmp/', '5', '1777', ''],
      ['usr/', '5', '755', ''],
      ['usr/bin/', '5', '755', ''],
      ['usr/bin/awk', '2', '777', '/bin/busybox'],
    ]);
    expect(layer.every((e) => e.uid === 0 && e.mtime === 0)).toBe(true);
    expect(layer[1]!.data.toString()).toBe('#!busybox\n');
  });

  it('is an archive GNU tar reads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-oci-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const a = ociArchive(input);
    writeFileSync(join(dir, 'image.tar'), a.tar);
    const listed = execFileSync('tar', ['-tf', join(dir, 'image.tar')], { encoding: 'utf8' });
    expect(listed.trim().split('\n')).toContain('index.json');
  });

  it('refuses a name without a tag, a file outside the image, and a file listed twice', () => {
    expect(() => tagOf('keel.dev/toolbox')).toThrow(ComponentsError);
    expect(() => tagOf('keel.dev/toolbox@sha256:00')).toThrow(/host\/path:tag/);
    expect(tagOf('localhost:5000/a/b:latest')).toBe('latest');
    const f = { path: '/a', type: 'directory', mode: 0o755 } as const;
    expect(() => ociArchive({ ...input, layer: [{ ...f, path: '../x' }] })).toThrow(/not a path inside/);
    expect(() => ociArchive({ ...input, layer: [f, { ...f, path: 'a/' }] })).toThrow(/listed twice/);
    expect(() =>
      ociArchive({
        ...input,
        layer: [
          { path: 'a', type: 'symlink', target: 'b' },
          { ...f, path: 'a/c' },
        ],
      }),
    ).toThrow(/not a directory/);
  });
});
