// installToDisk: the boot assets onto a disk, as upstream's installer does a fresh install: the whole disk
// locked exclusively for the entire run (udev leaves it alone), refused if not empty unless a wipe is
// asked for (then wiped fast), the boot partitions laid out and filled, then systemd-boot and the UKI on
// EFI and/or GRUB on the MBR, BIOS and BOOT, the layers (components, Kubernetes) first on the partition
// that keeps them (components.ts).
// The reboot into the disk is the caller's.

import { fsync, read, write } from 'node:fs';
import { mkdtemp, readFile, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type BlockFd,
  closeBlockDevice,
  fastWipe,
  getLogicalSectorSize,
  getSize,
  lockDisk,
  openBlockDevice,
} from '../sys/block/devices/index.js';
import { writeGpt } from '../sys/block/gpt/index.js';
import { mount, umount } from '../sys/mount.js';
import { LAYERS, type LayerName, layerPartition, pruneLayers, ukiVersion, writeLayer } from './components.js';
import { diskContents, execTool, fillPartition, type ToolRunner, waitForPartitions } from './disk.js';
import { InstallError } from './errors.js';
import { dirTree, type FileTree, mtoolsTree } from './file-tree.js';
import {
  type GrubBootAssets,
  type GrubSlot,
  grubVersions,
  installGrubBoot,
  patchBootImg,
  patchCoreImg,
} from './grub.js';
import { type Bootloader, type InstallLayout, partitionOf, planLayout } from './layout.js';
import { installSdBoot, type SdBootAssets, type SdBootResult } from './sd-boot.js';

const readAsync = promisify(read);
const writeAsync = promisify(write);
const fsyncAsync = promisify(fsync);

/** InstallAssets are the files an install copies, as the boot medium carries them. */
export interface InstallAssets extends Partial<SdBootAssets>, Partial<GrubBootAssets> {
  /** GRUB's boot.img (MBR boot code) */
  readonly bootImg?: string;
  /** GRUB's i386-pc core.img, built with its modules and its prefix (,gpt3)/grub */
  readonly coreImg?: string;
  /**
   * the layers the medium carries (its /keel/<layer>.sqsh): an install without the components layer runs
   * no etcd, one without Kubernetes' no kubelet
   */
  readonly layers?: Readonly<Partial<Record<LayerName, string>>>;
}

export interface InstallOptions {
  /** the whole disk's device node: /dev/sda, /dev/vda, /dev/nvme0n1 */
  readonly disk: string;
  readonly bootloader: Bootloader;
  readonly assets: InstallAssets;
  /** the version installed: it names the UKI and the GRUB entry */
  readonly version: string;
  /** the kernel command line GRUB passes (a UKI carries its own) */
  readonly cmdline: readonly string[];
  /** wipe a disk that holds something instead of refusing it (upstream's zero) */
  readonly wipe?: boolean;
  /** GUIDs derived from the labels, as upstream's disk images (default: random, as a machine's install) */
  readonly deterministic?: boolean;
  /** where to mount EFI and BOOT for a moment (default: the OS's temporary directory) */
  readonly scratchDir?: string;
  /**
   * how EFI's files are written: mounted (a node; the default), or with mtools on the partition for a
   * host whose kernel has no vfat (a build machine writing a disk image)
   */
  readonly efiAccess?: 'mount' | 'mtools';
  readonly run?: ToolRunner;
  readonly signal?: AbortSignal;
}

export interface InstallResult {
  readonly layout: InstallLayout;
  /** partition label → device node */
  readonly partitions: ReadonlyMap<string, string>;
  readonly sdBoot?: SdBootResult;
  readonly grubSlot?: GrubSlot;
  /** the disk held something and was wiped first */
  readonly wiped: boolean;
}

export async function installToDisk(o: InstallOptions): Promise<InstallResult> {
  checkAssets(o);
  const disk = openBlockDevice(o.disk, { write: true });
  try {
    await lockDisk(disk, 'exclusive', o.signal ? { signal: o.signal } : {});
    const size = getSize(disk);
    const found = await diskContents(disk, size);
    if (found && !o.wipe)
      throw new InstallError(
        'disk-not-empty',
        `${o.disk} is not empty: it holds ${found} (ask for a wipe to install over it)`,
      );
    if (found) await fastWipe(disk, o.signal ? { signal: o.signal } : {});
    const layout = planLayout({
      diskBytes: size,
      sectorSize: getLogicalSectorSize(disk),
      bootloader: o.bootloader,
      deterministic: o.deterministic ?? false,
    });
    await writeGpt(disk.fd, layout.table, o.signal ? { signal: o.signal } : {});
    const partitions = await waitForPartitions(
      o.disk,
      layout.partitions,
      o.signal ? { signal: o.signal } : {},
    );
    for (const p of layout.partitions)
      await fillPartition(disk, p, partitions.get(p.label)!, p.content, {
        run: o.run ?? execTool,
        ...(o.signal ? { signal: o.signal } : {}),
      });
    let sdBoot: SdBootResult | undefined;
    let grubSlot: GrubSlot | undefined;
    const layerOn = layerPartition(o.bootloader);
    if (o.bootloader !== 'grub') {
      const a = o.assets as SdBootAssets;
      const efi = partitions.get('EFI')!;
      const onEfi = (tree: FileTree) =>
        withLayers(tree, layerOn === 'EFI' ? o : undefined, async () => {
          const r = await installSdBoot(tree, a, o.version);
          return { result: r, versions: [o.version, ...(r.previous ? [ukiVersion(r.previous)!] : [])] };
        });
      sdBoot =
        o.efiAccess === 'mtools'
          ? await onEfi(mtoolsTree(efi, o.run ?? execTool))
          : await withMounted(efi, 'vfat', o.scratchDir, (root) => onEfi(dirTree(root)));
    }
    if (o.bootloader !== 'sd-boot') {
      await writeGrubBios(disk, layout, o.assets);
      const a = o.assets as GrubBootAssets;
      grubSlot = await withMounted(partitions.get('BOOT')!, 'xfs', o.scratchDir, (root) => {
        const tree = dirTree(root);
        return withLayers(tree, layerOn === 'BOOT' ? o : undefined, async () => ({
          result: await installGrubBoot(tree, a, { version: o.version, cmdline: o.cmdline }),
          versions: grubVersions((await tree.readText('grub/grub.cfg')) ?? ''),
        }));
      });
    }
    await fsyncAsync(disk.fd);
    return {
      layout,
      partitions,
      wiped: found !== undefined,
      ...(sdBoot ? { sdBoot } : {}),
      ...(grubSlot ? { grubSlot } : {}),
    };
  } finally {
    closeBlockDevice(disk); // the flock goes with the descriptor
  }
}

function checkAssets(o: InstallOptions): void {
  const need: (keyof InstallAssets)[] = [
    ...(o.bootloader !== 'grub' ? (['uki', 'systemdBoot'] as const) : []),
    ...(o.bootloader !== 'sd-boot' ? (['bootImg', 'coreImg', 'kernel', 'initramfs'] as const) : []),
  ];
  const missing = need.filter((k) => !o.assets[k]);
  if (missing.length)
    throw new InstallError(
      'bad-asset',
      `${o.bootloader} needs the assets ${missing.join(', ')}, which were not given`,
    );
}

/**
 * withLayers installs a bootloader on a partition that keeps the layers (`o` given, with layers): the new
 * version's layers first, then the bootloader, then the layers of versions its slots no longer boot go.
 */
async function withLayers<T>(
  tree: FileTree,
  o: InstallOptions | undefined,
  install: () => Promise<{ result: T; versions: readonly string[] }>,
): Promise<T> {
  const layers = LAYERS.flatMap((layer) => {
    const from = o?.assets.layers?.[layer];
    return o && from ? [{ layer, from, version: o.version }] : [];
  });
  for (const l of layers) await writeLayer(tree, l.from, l.layer, l.version);
  const { result, versions } = await install();
  if (layers.length) await pruneLayers(tree, versions);
  return result;
}

/** writeGrubBios puts core.img into the BIOS boot partition, then boot.img into LBA 0, pointing at it. */
async function writeGrubBios(disk: BlockFd, layout: InstallLayout, assets: InstallAssets): Promise<void> {
  const bios = partitionOf(layout, 'BIOS')!;
  const core = patchCoreImg(await readAsset(assets.coreImg!, 'core.img'), bios.firstLba);
  if (BigInt(core.length) > bios.sizeBytes)
    throw new InstallError(
      'bad-asset',
      `core.img: ${core.length} bytes do not fit the ${bios.sizeBytes}-byte BIOS partition`,
    );
  await writeAt(disk, core, bios.offsetBytes);
  const sector0 = Buffer.alloc(512);
  await readAsync(disk.fd, sector0, 0, 512, 0);
  await writeAt(disk, patchBootImg(await readAsset(assets.bootImg!, 'boot.img'), sector0, bios.firstLba), 0n);
}

async function readAsset(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (cause) {
    throw new InstallError('bad-asset', `${what}: cannot read ${path}`, { cause });
  }
}

async function writeAt(disk: BlockFd, data: Buffer, at: bigint): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await writeAsync(disk.fd, data, done, data.length - done, Number(at) + done);
    done += bytesWritten;
  }
}

/** withMounted mounts a partition on a fresh directory for the length of `fn`. */
async function withMounted<T>(
  device: string,
  fstype: string,
  scratch: string | undefined,
  fn: (root: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(scratch ?? tmpdir(), 'keel-install-'));
  try {
    mount(device, dir, fstype);
    try {
      return await fn(dir);
    } finally {
      umount(dir);
    }
  } finally {
    await rmdir(dir);
  }
}
