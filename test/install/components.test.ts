// The layers (components, Kubernetes) on the ISO and on an installed disk's partition: named by layer and
// version, written before the bootloader's config, and the ones no slot boots any more removed, of either
// layer; on a directory and through mtools.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  LAYER_DIR,
  LAYERS,
  layerFileName,
  layerOnMedium,
  layerPartition,
  layerPath,
  pruneLayers,
  staleLayers,
  ukiVersion,
  writeLayer,
} from '../../src/install/components.js';
import { execTool } from '../../src/install/disk.js';
import { isInstallError } from '../../src/install/errors.js';
import { dirTree, type FileTree, mtoolsTree } from '../../src/install/file-tree.js';

async function scratch(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'keel-layers-'));
  onTestFinished(() => rm(d, { recursive: true, force: true }));
  return d;
}

describe('layer names and places', () => {
  it('names a layer for itself and its version, and refuses a version that is no file name', () => {
    expect(LAYERS).toEqual(['components', 'kubernetes']);
    expect(layerFileName('components', 'v0.1.0')).toBe('components-v0.1.0.sqsh');
    expect(layerPath('components', 'v0.1.0')).toBe(`${LAYER_DIR}/components-v0.1.0.sqsh`);
    expect(layerPath('kubernetes', 'v0.1.0')).toBe('keel/kubernetes-v0.1.0.sqsh');
    let e: unknown;
    try {
      layerFileName('kubernetes', '../x');
    } catch (err) {
      e = err;
    }
    expect(isInstallError(e, 'invalid-argument')).toBe(true);
  });

  it('finds a layer on the ISO as keel/<layer>.sqsh, as scripts/iso.sh puts it', () => {
    expect(layerOnMedium('components')).toBe('keel/components.sqsh');
    expect(layerOnMedium('kubernetes')).toBe('keel/kubernetes.sqsh');
  });

  it('keeps the layers on BOOT when the layout has one, else on EFI beside the UKIs', () => {
    expect(layerPartition('sd-boot')).toBe('EFI');
    expect(layerPartition('grub')).toBe('BOOT');
    expect(layerPartition('dual')).toBe('BOOT');
  });

  it("reads a UKI's version back from its file name, ~N suffix or not", () => {
    expect(ukiVersion('Keel-v0.1.0.efi')).toBe('v0.1.0');
    expect(ukiVersion('KEEL-V0.2.0~1.EFI')).toBe('V0.2.0');
    expect(ukiVersion('other.efi')).toBeUndefined();
  });

  it('lists as stale the layers of versions not kept, and nothing else, without case', () => {
    const files = ['components-v1.sqsh', 'COMPONENTS-V2.SQSH', 'components-v3.sqsh', 'notes.txt'];
    expect(staleLayers(files, ['v2', 'v3'])).toEqual(['components-v1.sqsh']);
    expect(staleLayers(files, [])).toEqual([
      'components-v1.sqsh',
      'COMPONENTS-V2.SQSH',
      'components-v3.sqsh',
    ]);
  });

  it("treats Kubernetes' layers as the components': stale by version, whichever layers a version has", () => {
    const files = [
      'components-v1.sqsh',
      'kubernetes-v1.sqsh',
      'components-v2.sqsh',
      'KUBERNETES-V3.SQSH',
      'components-v3.sqsh',
      'kubernetes.sqsh',
      'other-v1.sqsh',
    ];
    expect(staleLayers(files, ['v2', 'v3'])).toEqual(['components-v1.sqsh', 'kubernetes-v1.sqsh']);
    expect(staleLayers(files, ['v1'])).toEqual([
      'components-v2.sqsh',
      'KUBERNETES-V3.SQSH',
      'components-v3.sqsh',
    ]);
  });
});

/**
 * the A/B life of a partition's layers: v1 installed with both layers, v2 beside it with both, v3 (a medium
 * without Kubernetes' layer) replaces v1, whose two layers go
 */
async function abLife(tree: FileTree, dir: string) {
  for (const v of ['v1', 'v2', 'v3']) await writeFile(join(dir, `${v}.sqsh`), `layer ${v}`);
  await writeFile(join(dir, 'k1.sqsh'), 'kubernetes v1');
  await writeFile(join(dir, 'k2.sqsh'), 'kubernetes v2');
  await writeLayer(tree, join(dir, 'v1.sqsh'), 'components', 'v1');
  await writeLayer(tree, join(dir, 'k1.sqsh'), 'kubernetes', 'v1');
  expect(await pruneLayers(tree, ['v1'])).toEqual([]);
  await writeLayer(tree, join(dir, 'v2.sqsh'), 'components', 'v2');
  await writeLayer(tree, join(dir, 'k2.sqsh'), 'kubernetes', 'v2');
  expect(await pruneLayers(tree, ['v2', 'v1'])).toEqual([]);
  expect((await tree.list(LAYER_DIR)).sort()).toEqual([
    'components-v1.sqsh',
    'components-v2.sqsh',
    'kubernetes-v1.sqsh',
    'kubernetes-v2.sqsh',
  ]);
  await writeLayer(tree, join(dir, 'v3.sqsh'), 'components', 'v3');
  expect((await pruneLayers(tree, ['v3', 'v2'])).sort()).toEqual([
    'components-v1.sqsh',
    'kubernetes-v1.sqsh',
  ]);
  expect((await tree.list(LAYER_DIR)).sort()).toEqual([
    'components-v2.sqsh',
    'components-v3.sqsh',
    'kubernetes-v2.sqsh',
  ]);
  expect(await tree.readText(layerPath('components', 'v3'))).toBe('layer v3');
  expect(await tree.readText(layerPath('kubernetes', 'v2'))).toBe('kubernetes v2');
}

describe('writeLayer and pruneLayers', () => {
  it('on a directory: each version beside the one it replaces, the older ones removed', async () => {
    const d = await scratch();
    await abLife(dirTree(join(d, 'part')), d);
    expect(await readFile(join(d, 'part', layerPath('components', 'v2')), 'utf8')).toBe('layer v2');
  });

  it('on a FAT image through mtools, as a build machine writes EFI', async () => {
    const d = await scratch();
    const img = join(d, 'efi.img');
    execFileSync('mkfs.vfat', ['-C', img, String(8 * 1024)], { stdio: 'pipe' });
    await abLife(mtoolsTree(img, execTool), d);
    execFileSync('fsck.vfat', ['-n', img], { stdio: 'pipe' });
  });

  it('names a missing layer', async () => {
    const d = await scratch();
    await expect(writeLayer(dirTree(d), join(d, 'absent.sqsh'), 'components', 'v1')).rejects.toThrow(
      /components layer: .*absent\.sqsh does not exist/,
    );
    await expect(writeLayer(dirTree(d), join(d, 'absent.sqsh'), 'kubernetes', 'v1')).rejects.toThrow(
      /kubernetes layer: .*absent\.sqsh does not exist/,
    );
  });
});
