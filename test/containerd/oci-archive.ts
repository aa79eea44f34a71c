// A minimal OCI image archive for tests (oci-layout, index.json, blobs): one uncompressed layer holding the
// given files, a config with the entrypoint, the image named by the index's annotations, as
// `ctr images import` reads it. Also the ustar writer it needs.
import { createHash } from 'node:crypto';

export interface ArchiveFile {
  readonly path: string;
  readonly content: Buffer;
  readonly mode?: number;
}

export interface OciArchive {
  readonly tar: Buffer;
  /** the manifest's digest: the image's target once imported */
  readonly manifestDigest: string;
  /** what containerd reports as the image's size: manifest, config and layer */
  readonly size: number;
}

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** tar writes a ustar archive of regular files (names under 100 bytes), ending in two zero blocks. */
export function tar(files: readonly ArchiveFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    const h = Buffer.alloc(512);
    const field = (off: number, len: number, s: string) => h.write(s, off, len, 'ascii');
    const octal = (off: number, len: number, n: number) =>
      field(off, len, `${n.toString(8).padStart(len - 1, '0')}\0`);
    field(0, 100, f.path);
    octal(100, 8, f.mode ?? 0o644);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, f.content.length);
    octal(136, 12, 0);
    field(148, 8, '        ');
    field(156, 1, '0');
    field(257, 6, 'ustar\0');
    field(263, 2, '00');
    let sum = 0;
    for (const b of h) sum += b;
    field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    parts.push(h, f.content, Buffer.alloc((512 - (f.content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** ociArchive builds an image named `name` (e.g. `registry.k8s.io/pause:3.10.2`) for linux/`arch`. */
export function ociArchive(
  name: string,
  files: readonly ArchiveFile[],
  entrypoint: readonly string[],
  arch = process.arch === 'arm64' ? 'arm64' : 'amd64',
): OciArchive {
  const layer = tar(files);
  const config = Buffer.from(
    JSON.stringify({
      architecture: arch,
      os: 'linux',
      config: { Entrypoint: entrypoint },
      rootfs: { type: 'layers', diff_ids: [sha256(layer)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: sha256(config),
        size: config.length,
      },
      layers: [
        { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256(layer), size: layer.length },
      ],
    }),
  );
  const tag = name.slice(name.lastIndexOf(':') + 1);
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          digest: sha256(manifest),
          size: manifest.length,
          platform: { architecture: arch, os: 'linux' },
          annotations: { 'io.containerd.image.name': name, 'org.opencontainers.image.ref.name': tag },
        },
      ],
    }),
  );
  const blob = (b: Buffer) => ({ path: `blobs/sha256/${sha256(b).slice(7)}`, content: b });
  return {
    tar: tar([
      { path: 'oci-layout', content: Buffer.from('{"imageLayoutVersion":"1.0.0"}') },
      { path: 'index.json', content: index },
      blob(layer),
      blob(config),
      blob(manifest),
    ]),
    manifestDigest: sha256(manifest),
    size: manifest.length + config.length + layer.length,
  };
}
