// An OCI image-layout archive (a tar of oci-layout, index.json and blobs/sha256/…) of a one-layer image,
// the form `ctr images import` and `talosctl debug` take. Byte-reproducible: the same input gives the same
// bytes (entries sorted, owners and times fixed, JSON keys in a fixed order, no creation date).
//
// The layer is an uncompressed tar: gzip's bytes depend on the zlib Node bundles, so a compressed layer
// would not be reproducible across Node versions; the archive lands in the zstd-19 squashfs, which
// compresses a plain tar better than gzip would; containerd then imports it with nothing to inflate.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { TAR_END, type TarEntry, tarHeader, tarPadding } from '../../src/sys/fs/tar.js';
import { ComponentsError } from './errors.js';

export const MEDIA_INDEX = 'application/vnd.oci.image.index.v1+json';
export const MEDIA_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const MEDIA_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const MEDIA_LAYER = 'application/vnd.oci.image.layer.v1.tar';
/** the annotation containerd names an imported image by (the full reference) */
export const ANNOTATION_CONTAINERD_NAME = 'io.containerd.image.name';
/** OCI's reference name: the tag, as containerd's own export writes it */
export const ANNOTATION_REF_NAME = 'org.opencontainers.image.ref.name';

/** One entry of the image's filesystem; parent directories not listed are added (0755, root). */
export type OciFile =
  | { readonly path: string; readonly type: 'file'; readonly mode: number; readonly content: Buffer }
  | { readonly path: string; readonly type: 'directory'; readonly mode: number }
  | { readonly path: string; readonly type: 'symlink'; readonly target: string };

/** The runtime part of an image config (OCI's `config` object). */
export interface OciImageConfig {
  readonly entrypoint?: readonly string[];
  readonly cmd?: readonly string[];
  /** KEY=VALUE */
  readonly env?: readonly string[];
  readonly workingDir?: string;
  /** user[:group], by name or number */
  readonly user?: string;
  /** exposed ports: 53/udp, 53/tcp (a bare number is tcp) */
  readonly ports?: readonly string[];
}

export interface OciArchiveInput {
  /** the full reference with a tag: `keel.dev/toolbox:v1` */
  readonly name: string;
  /** more references for the same image: the index names its manifest once for each */
  readonly aliases?: readonly string[];
  /** Go's name of the architecture: amd64, arm64 */
  readonly arch: string;
  readonly layer: readonly OciFile[];
  readonly config: OciImageConfig;
}

export interface OciArchive {
  readonly tar: Buffer;
  /** `sha256:…` of the manifest: the image's digest once imported */
  readonly manifestDigest: string;
  readonly configDigest: string;
  /** the uncompressed layer's digest, so also its diff id */
  readonly layerDigest: string;
  /** what containerd reports as the image's size: manifest, config and layer */
  readonly size: number;
}

interface Blob {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly bytes: Buffer;
}

/** ociArchive writes the image-layout archive of one image made of one layer. */
export function ociArchive(input: OciArchiveInput): OciArchive {
  const names = [input.name, ...(input.aliases ?? [])];
  if (new Set(names).size !== names.length)
    throw new ComponentsError('build', `image name '${input.name}': an alias repeats a name`);
  const tags = names.map(tagOf);
  const layer = blob(MEDIA_LAYER, layerTar(input.layer));
  const config = blob(MEDIA_CONFIG, json(imageConfig(input.arch, input.config, layer.digest)));
  const manifest = blob(
    MEDIA_MANIFEST,
    json({
      schemaVersion: 2,
      mediaType: MEDIA_MANIFEST,
      config: descriptor(config),
      layers: [descriptor(layer)],
    }),
  );
  const index = json({
    schemaVersion: 2,
    mediaType: MEDIA_INDEX,
    manifests: names.map((name, i) => ({
      ...descriptor(manifest),
      annotations: { [ANNOTATION_CONTAINERD_NAME]: name, [ANNOTATION_REF_NAME]: tags[i] },
      platform: { architecture: input.arch, os: 'linux' },
    })),
  });
  const blobs = [layer, config, manifest].filter(
    (b, i, all) => all.findIndex((x) => x.digest === b.digest) === i,
  );
  const entries: [TarEntry, Buffer][] = [
    [dir('blobs/'), Buffer.alloc(0)],
    [dir('blobs/sha256/'), Buffer.alloc(0)],
    ...blobs
      .map(
        (b) =>
          [file(`blobs/sha256/${b.digest.slice('sha256:'.length)}`, 0o644, b.bytes.length), b.bytes] as [
            TarEntry,
            Buffer,
          ],
      )
      .sort(([a], [b]) => compare(a.name, b.name)),
    [file('index.json', 0o644, index.length), index],
    [file('oci-layout', 0o644, OCI_LAYOUT.length), OCI_LAYOUT],
  ];
  return {
    tar: tarOf(entries),
    manifestDigest: manifest.digest,
    configDigest: config.digest,
    layerDigest: layer.digest,
    size: manifest.size + config.size + layer.size,
  };
}

const OCI_LAYOUT = Buffer.from('{"imageLayoutVersion":"1.0.0"}');

/** tagOf is the tag of `name`; a reference without one (or by digest) is refused: the import needs a name. */
export function tagOf(name: string): string {
  const m =
    /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-]+[a-z0-9]+)*)*:(?<tag>[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})$/.exec(
      name,
    );
  if (!m)
    throw new ComponentsError('build', `image name '${name}': not a reference of the form host/path:tag`);
  return m.groups!.tag!;
}

function imageConfig(arch: string, c: OciImageConfig, diffId: string): unknown {
  const config: Record<string, unknown> = {};
  if (c.user) config.User = c.user;
  // as Docker writes EXPOSE: a set of port/protocol keys
  if (c.ports?.length)
    config.ExposedPorts = Object.fromEntries(
      c.ports.map((p) => [p.includes('/') ? p : `${p}/tcp`, {}] as const).sort(([a], [b]) => compare(a, b)),
    );
  if (c.env?.length) config.Env = c.env;
  if (c.entrypoint?.length) config.Entrypoint = c.entrypoint;
  if (c.cmd?.length) config.Cmd = c.cmd;
  if (c.workingDir) config.WorkingDir = c.workingDir;
  return { architecture: arch, os: 'linux', config, rootfs: { type: 'layers', diff_ids: [diffId] } };
}

/** layerTar is the layer's tar: every entry once, parents before children, in byte order of the path. */
export function layerTar(files: readonly OciFile[]): Buffer {
  const byPath = new Map<string, OciFile>();
  for (const f of files) {
    const path = posix.normalize(f.path).replace(/^\/+|\/+$/g, '');
    if (!path || path === '.' || path.startsWith('..'))
      throw new ComponentsError('build', `image file '${f.path}': not a path inside the image`);
    if (byPath.has(path)) throw new ComponentsError('build', `image file '${f.path}': listed twice`);
    byPath.set(path, f);
  }
  for (const path of [...byPath.keys()])
    for (let p = posix.dirname(path); p !== '.'; p = posix.dirname(p)) {
      const parent = byPath.get(p);
      if (!parent) byPath.set(p, { path: p, type: 'directory', mode: 0o755 });
      else if (parent.type !== 'directory')
        throw new ComponentsError('build', `image file '${path}': its parent ${p} is not a directory`);
    }
  const entries = [...byPath].map(([path, f]): [TarEntry, Buffer] => {
    if (f.type === 'directory') return [dir(`${path}/`, f.mode), Buffer.alloc(0)];
    if (f.type === 'symlink')
      return [{ ...dir(path), type: 'symlink', mode: 0o777, linkname: f.target }, Buffer.alloc(0)];
    return [file(path, f.mode, f.content.length), f.content];
  });
  // sorted without the directories' trailing slash, so a directory comes right before its contents
  entries.sort(([a], [b]) => compare(a.name.replace(/\/$/, ''), b.name.replace(/\/$/, '')));
  return tarOf(entries);
}

function tarOf(entries: readonly (readonly [TarEntry, Buffer])[]): Buffer {
  const parts: Buffer[] = [];
  for (const [e, data] of entries) parts.push(tarHeader(e), data, tarPadding(data.length));
  parts.push(TAR_END);
  return Buffer.concat(parts);
}

const dir = (name: string, mode = 0o755): TarEntry => ({
  name,
  type: 'directory',
  mode,
  uid: 0,
  gid: 0,
  size: 0,
  mtime: 0,
});
const file = (name: string, mode: number, size: number): TarEntry => ({
  ...dir(name, mode),
  type: 'file',
  size,
});

/** byte order, not the locale's: the same on every host */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

function blob(mediaType: string, bytes: Buffer): Blob {
  return {
    mediaType,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    size: bytes.length,
    bytes,
  };
}

const descriptor = (b: Blob) => ({ mediaType: b.mediaType, digest: b.digest, size: b.size });
