// The components layer (etcd, containerd, runc, the CNI plugins) on an installed disk: one squashfs per
// version, keel/components-<version>.sqsh, on BOOT when the layout has one (beside GRUB's slots A and B),
// else on EFI (beside the UKIs). A node mounts the layer of the version it runs, so whichever slot booted
// (the default, the fallback, one picked in a menu) finds its own; a layer is written before the
// bootloader's config names the new slot, and the layers of versions no slot boots any more are removed
// after, as upstream removes the UKIs it no longer keeps.
import type { FileTree } from './file-tree.js';
import type { Bootloader } from './layout.js';
import { copyAsset, UKI_PREFIX, ukiFileName } from './sd-boot.js';

/** the directory that holds the layers, on the partition layerPartition names */
export const LAYER_DIR = 'keel';
const LAYER_PREFIX = 'components-';
const LAYER_SUFFIX = '.sqsh';

/** layerPartition is where a layout keeps the layers: BOOT if it has one, else EFI. */
export const layerPartition = (b: Bootloader): 'BOOT' | 'EFI' => (b === 'sd-boot' ? 'EFI' : 'BOOT');

/** layerFileName is a version's layer file ("v0.1.0" → "components-v0.1.0.sqsh"). */
export function layerFileName(version: string): string {
  ukiFileName(version); // the same rule: a version that names a file on FAT, or an InstallError
  return `${LAYER_PREFIX}${version}${LAYER_SUFFIX}`;
}

/** layerPath is a version's layer relative to its partition's root. */
export const layerPath = (version: string): string => `${LAYER_DIR}/${layerFileName(version)}`;

/** ukiVersion is the version a Keel UKI's file name carries ("Keel-v0.1.0~1.efi" → "v0.1.0"). */
export function ukiVersion(file: string): string | undefined {
  const m = new RegExp(`^${UKI_PREFIX}(.+?)(~\\d+)?\\.efi$`, 'i').exec(file);
  return m?.[1];
}

/** staleLayers lists the layer files of versions not in `keep` (FAT compares names without case). */
export function staleLayers(files: readonly string[], keep: readonly string[]): string[] {
  const kept = new Set(keep.map((v) => layerFileName(v).toLowerCase()));
  const ours = (f: string) => {
    const l = f.toLowerCase();
    return l.startsWith(LAYER_PREFIX) && l.endsWith(LAYER_SUFFIX);
  };
  return files.filter((f) => ours(f) && !kept.has(f.toLowerCase()));
}

/** writeLayer copies a version's layer in, replacing one of the same version. */
export async function writeLayer(tree: FileTree, from: string, version: string): Promise<void> {
  await tree.mkdirs(LAYER_DIR);
  await copyAsset(tree, from, layerPath(version), 'components layer');
}

/** pruneLayers removes the layers of every version not in `keep`; it returns the names removed. */
export async function pruneLayers(tree: FileTree, keep: readonly string[]): Promise<string[]> {
  const stale = staleLayers(await tree.list(LAYER_DIR), keep);
  for (const f of stale) await tree.remove(`${LAYER_DIR}/${f}`);
  return stale;
}
