// Reads an OCI archive the image writer made, for the layers' tests: the names its index gives the image,
// its digests, its config and its one layer's files by path.
import { readTar, type TarEntryRead } from './read-tar.js';

export interface ImageRead {
  /** io.containerd.image.name of each entry of the index */
  readonly names: string[];
  readonly digests: string[];
  /** the image config's `config` object (Entrypoint, User, Env, ExposedPorts, …) */
  readonly config: Record<string, unknown>;
  /** the layer's entries by path, in the layer's order */
  readonly files: Map<string, TarEntryRead>;
}

export function readImage(tar: Buffer): ImageRead {
  const outer = new Map(readTar(tar).map((e) => [e.name, e.data]));
  const blob = (d: string) => outer.get(`blobs/sha256/${d.slice('sha256:'.length)}`)!;
  const index = JSON.parse(outer.get('index.json')!.toString()) as {
    manifests: { digest: string; annotations: Record<string, string> }[];
  };
  const m = JSON.parse(blob(index.manifests[0]!.digest).toString());
  return {
    names: index.manifests.map((x) => x.annotations['io.containerd.image.name']!),
    digests: index.manifests.map((x) => x.digest),
    config: JSON.parse(blob(m.config.digest).toString()).config as Record<string, unknown>,
    files: new Map(readTar(blob(m.layers[0].digest)).map((e) => [e.name, e])),
  };
}
