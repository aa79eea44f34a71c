// The tests' images: one layer of regular files and an entrypoint, for this machine's architecture,
// written by the layer's own OCI archive writer.
import { type OciArchive, ociArchive as write } from '../../scripts/components/oci-archive.js';

export type { OciArchive };

export interface ArchiveFile {
  readonly path: string;
  readonly content: Buffer;
  readonly mode?: number;
}

/** ociArchive builds an image named `name` (e.g. `registry.k8s.io/pause:3.10.2`) for linux/`arch`. */
export function ociArchive(
  name: string,
  files: readonly ArchiveFile[],
  entrypoint: readonly string[],
  arch = process.arch === 'arm64' ? 'arm64' : 'amd64',
): OciArchive {
  return write({
    name,
    arch,
    layer: files.map((f) => ({ path: f.path, type: 'file', mode: f.mode ?? 0o644, content: f.content })),
    config: { entrypoint },
  });
}
