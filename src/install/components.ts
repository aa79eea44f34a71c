// The layers Keel ships beside its root filesystem, each one squashfs: the components (etcd, containerd,
// runc, the CNI plugins) and Kubernetes (the kubelet, pause and the control plane's images). The ISO
// carries each as keel/<layer>.sqsh; an installed disk keeps one file per layer and version,
// keel/<layer>-<version>.sqsh, on BOOT when the layout has one (beside GRUB's slots A and B), else on EFI
// (beside the UKIs). A node mounts the layers of the version it runs, so whichever slot booted (the
// default, the fallback, one picked in a menu) finds its own; the layers are written before the
// bootloader's config names the new slot, and those of versions no slot boots any more are removed after,
// as upstream removes the UKIs it no longer keeps.
import type { FileTree } from './file-tree.js';
import type { Bootloader } from './layout.js';
import { copyAsset, UKI_PREFIX, ukiFileName } from './sd-boot.js';

/** the layers, in the order a node mounts them (the components first: their ctr imports both's images) */
export const LAYERS = ['components', 'kubernetes'] as const;
export type LayerName = (typeof LAYERS)[number];

/** the directory that holds the layers: on the ISO, and on the partition layerPartition names */
export const LAYER_DIR = 'keel';
const LAYER_SUFFIX = '.sqsh';

/** layerPartition is where a layout keeps the layers: BOOT if it has one, else EFI. */
export const layerPartition = (b: Bootloader): 'BOOT' | 'EFI' => (b === 'sd-boot' ? 'EFI' : 'BOOT');

/** layerOnMedium is a layer's path on Keel's ISO ("kubernetes" → "keel/kubernetes.sqsh"). */
export const layerOnMedium = (layer: LayerName): string => `${LAYER_DIR}/${layer}${LAYER_SUFFIX}`;

/** layerFileName is a version's layer file ("components", "v0.1.0" → "components-v0.1.0.sqsh"). */
export function layerFileName(layer: LayerName, version: string): string {
  ukiFileName(version); // the same rule: a version that names a file on FAT, or an InstallError
  return `${layer}-${version}${LAYER_SUFFIX}`;
}

/** layerPath is a version's layer relative to its partition's root. */
export const layerPath = (layer: LayerName, version: string): string =>
  `${LAYER_DIR}/${layerFileName(layer, version)}`;

/** ukiVersion is the version a Keel UKI's file name carries ("Keel-v0.1.0~1.efi" → "v0.1.0"). */
export function ukiVersion(file: string): string | undefined {
  const m = new RegExp(`^${UKI_PREFIX}(.+?)(~\\d+)?\\.efi$`, 'i').exec(file);
  return m?.[1];
}

/** staleLayers lists the files of every layer of versions not in `keep` (FAT compares names without case). */
export function staleLayers(files: readonly string[], keep: readonly string[]): string[] {
  const kept = new Set(LAYERS.flatMap((l) => keep.map((v) => layerFileName(l, v).toLowerCase())));
  const ours = (f: string) => {
    const name = f.toLowerCase();
    return name.endsWith(LAYER_SUFFIX) && LAYERS.some((l) => name.startsWith(`${l}-`));
  };
  return files.filter((f) => ours(f) && !kept.has(f.toLowerCase()));
}

/** writeLayer copies a version's layer in, replacing one of the same version. */
export async function writeLayer(
  tree: FileTree,
  from: string,
  layer: LayerName,
  version: string,
): Promise<void> {
  await tree.mkdirs(LAYER_DIR);
  await copyAsset(tree, from, layerPath(layer, version), `${layer} layer`);
}

/** pruneLayers removes the layers of every version not in `keep`; it returns the names removed. */
export async function pruneLayers(tree: FileTree, keep: readonly string[]): Promise<string[]> {
  const stale = staleLayers(await tree.list(LAYER_DIR), keep);
  for (const f of stale) await tree.remove(`${LAYER_DIR}/${f}`);
  return stale;
}
