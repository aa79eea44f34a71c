// GRUB for BIOS machines without grub-install on the node: GRUB's i386-pc core.img is built with its
// modules when the image is built (scripts/grub-bios.sh), and the install writes boot.img into the MBR's
// boot code and core.img into the BIOS boot partition, patching the sector pointers the way
// grub-bios-setup does (util/setup.c): boot.img learns core.img's first sector, and the blocklist at the
// end of core.img's first sector (diskboot.img) says where the rest of core.img lies. The protective MBR's
// partition entry and the disk signature stay as the GPT writer left them. grub.cfg on BOOT (xfs) holds
// the two slots A and B as upstream's, each with its own kernel and initramfs.
import { InstallError } from './errors.js';
import type { FileTree } from './file-tree.js';
import { copyAsset } from './sd-boot.js';

export const SECTOR = 512;

/** offsets in boot.img (grub/include/grub/i386/pc/boot.h) */
const BOOT = {
  bpbStart: 0x03,
  bpbEnd: 0x5a,
  kernelSector: 0x5c,
  bootDrive: 0x64,
  driveCheck: 0x66,
  /** the disk signature, then the four partition entries, up to the 55AA signature */
  ntMagic: 0x1b8,
  partEnd: 0x1fe,
} as const;

/** the blocklist entry at the end of diskboot.img: start (u64), sectors (u16), load segment (u16) */
const BLOCKLIST = SECTOR - 12;
/** core.img's rest is loaded from 0x8200 (GRUB_BOOT_I386_PC_KERNEL_SEG 0x800 + one sector) */
const KERNEL_SEGMENT = 0x820;

/**
 * patchBootImg is LBA 0 with GRUB's boot.img in it: boot.img's code, the BPB area and the bytes from the
 * disk signature to the partition entries kept from `sector0` (the protective MBR), the drive check
 * replaced by NOPs for BIOSes that pass a wrong boot drive (grub-bios-setup does so on hard disks), and
 * the LBA of core.img's first sector.
 */
export function patchBootImg(bootImg: Uint8Array, sector0: Uint8Array, coreLba: bigint): Buffer {
  if (bootImg.length !== SECTOR || bootImg[510] !== 0x55 || bootImg[511] !== 0xaa)
    throw new InstallError(
      'bad-asset',
      `boot.img: want one 512-byte sector ending in 55AA, got ${bootImg.length} bytes`,
    );
  if (sector0.length < SECTOR) throw new InstallError('invalid-argument', 'LBA 0: fewer than 512 bytes');
  const out = Buffer.from(bootImg);
  out.set(sector0.subarray(BOOT.bpbStart, BOOT.bpbEnd), BOOT.bpbStart);
  out[BOOT.driveCheck] = 0x90;
  out[BOOT.driveCheck + 1] = 0x90;
  out.set(sector0.subarray(BOOT.ntMagic, BOOT.partEnd), BOOT.ntMagic);
  out[BOOT.bootDrive] = 0xff;
  out.writeBigUInt64LE(coreLba, BOOT.kernelSector);
  return out;
}

/** bootImgCoreLba reads back the core.img sector a boot.img points at. */
export const bootImgCoreLba = (sector0: Uint8Array): bigint =>
  Buffer.from(sector0.buffer, sector0.byteOffset, SECTOR).readBigUInt64LE(BOOT.kernelSector);

/**
 * patchCoreImg is core.img padded to whole sectors for `firstLba`: its first sector's blocklist points at
 * the sectors right after it (one extent, the partition holds it whole), to be loaded from 0x8200.
 * Reed-Solomon codes are not added (grub-bios-setup's --no-rs-codes): the partition is not shared.
 */
export function patchCoreImg(coreImg: Uint8Array, firstLba: bigint): Buffer {
  const sectors = Math.ceil(coreImg.length / SECTOR);
  if (sectors < 2 || sectors - 1 > 0xffff)
    throw new InstallError('bad-asset', `core.img: ${coreImg.length} bytes is not an i386-pc core image`);
  const out = Buffer.alloc(sectors * SECTOR);
  out.set(coreImg);
  // diskboot.img as grub-mkimage leaves it: the load segment already set, the next entry a terminator
  if (out.readUInt16LE(BLOCKLIST + 10) !== KERNEL_SEGMENT || out.readBigUInt64LE(BLOCKLIST - 12) !== 0n)
    throw new InstallError(
      'bad-asset',
      'core.img: its first sector is not diskboot.img (no blocklist at its end)',
    );
  out.writeBigUInt64LE(firstLba + 1n, BLOCKLIST);
  out.writeUInt16LE(sectors - 1, BLOCKLIST + 8);
  return out;
}

/** coreImgBlocklist reads back where a patched core.img says its rest lies. */
export function coreImgBlocklist(first: Uint8Array): { start: bigint; sectors: number; segment: number } {
  const b = Buffer.from(first.buffer, first.byteOffset, SECTOR);
  return {
    start: b.readBigUInt64LE(BLOCKLIST),
    sectors: b.readUInt16LE(BLOCKLIST + 8),
    segment: b.readUInt16LE(BLOCKLIST + 10),
  };
}

export type GrubSlot = 'A' | 'B';

export interface GrubEntry {
  readonly slot: GrubSlot;
  /** the OS version this slot boots ("v0.1.0") */
  readonly version: string;
  /** the kernel command line, as words */
  readonly cmdline: readonly string[];
}

export interface GrubConfig {
  readonly entries: readonly GrubEntry[];
  /** the slot booted by default; the other one, if present, is the fallback */
  readonly default: GrubSlot;
}

/** entryName is the menu entry's title, as upstream's: "A - Keel v0.1.0". */
export const entryName = (e: Pick<GrubEntry, 'slot' | 'version'>): string => `${e.slot} - Keel ${e.version}`;

/**
 * grubConfig is BOOT's grub/grub.cfg: upstream's (default, fallback, timeout 3, one entry per slot
 * loading /<slot>/vmlinuz and /<slot>/initramfs), with the serial terminal first as Keel's ISO has it.
 * Every word of the command line is single-quoted, so GRUB neither expands nor splits it.
 */
export function grubConfig(c: GrubConfig): string {
  const byDefault = c.entries.find((e) => e.slot === c.default);
  if (!byDefault)
    throw new InstallError('invalid-argument', `grub.cfg: no entry for the default slot ${c.default}`);
  if (new Set(c.entries.map((e) => e.slot)).size !== c.entries.length)
    throw new InstallError('invalid-argument', 'grub.cfg: a slot appears twice');
  const fallback = c.entries.find((e) => e.slot !== c.default);
  const lines = [
    '# written by the Keel installer: slots A and B, the default and the fallback',
    `set default="${entryName(byDefault)}"`,
    ...(fallback ? [`set fallback="${entryName(fallback)}"`] : []),
    'set timeout=3',
    '',
    'serial --unit=0 --speed=115200',
    'terminal_input serial console',
    'terminal_output serial console',
  ];
  for (const e of [...c.entries].sort((a, b) => a.slot.localeCompare(b.slot)))
    lines.push(
      '',
      `menuentry "${entryName(e)}" {`,
      `\tlinux /${e.slot}/vmlinuz ${e.cmdline.map(quote).join(' ')}`,
      `\tinitrd /${e.slot}/initramfs`,
      '}',
    );
  return `${lines.join('\n')}\n`;
}

/** quote single-quotes a word for GRUB's script language. */
export const quote = (w: string): string => `'${w.replaceAll("'", "'\\''")}'`;

/** grubDefaultSlot reads the slot a grub.cfg boots by default; undefined when none is recognised. */
export function grubDefaultSlot(cfg: string): GrubSlot | undefined {
  const m = /^set default="([AB]) - /m.exec(cfg);
  return m ? (m[1] as GrubSlot) : undefined;
}

/** grubVersions lists the versions a grub.cfg's entries boot, in the file's order. */
export const grubVersions = (cfg: string): string[] =>
  [...cfg.matchAll(/^menuentry "[AB] - Keel ([^"]+)" \{$/gm)].map((m) => m[1]!);

export interface GrubBootAssets {
  readonly kernel: string;
  readonly initramfs: string;
}

/**
 * installGrubBoot writes a slot into BOOT's files: a fresh BOOT gets slot A, one that boots a slot
 * already gets the other one (upstream's flip), whose entry becomes the default and the old one the
 * fallback. Returns the slot written.
 */
export async function installGrubBoot(
  boot: FileTree,
  assets: GrubBootAssets,
  entry: Omit<GrubEntry, 'slot'>,
): Promise<GrubSlot> {
  const old = (await boot.readText('grub/grub.cfg')) ?? '';
  const current = grubDefaultSlot(old);
  const slot: GrubSlot = current === 'A' ? 'B' : 'A';
  const previous = current ? previousEntry(old, current) : undefined;
  await boot.mkdirs(slot);
  await boot.mkdirs('grub');
  await copyAsset(boot, assets.kernel, `${slot}/vmlinuz`, 'kernel');
  await copyAsset(boot, assets.initramfs, `${slot}/initramfs`, 'initramfs');
  const entries: GrubEntry[] = [{ ...entry, slot }, ...(previous ? [previous] : [])];
  await boot.writeText('grub/grub.cfg', grubConfig({ entries, default: slot }));
  return slot;
}

// the entry of a slot as an earlier grub.cfg wrote it, so the fallback keeps its version and command line
function previousEntry(cfg: string, slot: GrubSlot): GrubEntry | undefined {
  const title = new RegExp(
    `^menuentry "${slot} - Keel ([^"]+)" \\{\\n\\tlinux /${slot}/vmlinuz (.*)$`,
    'm',
  ).exec(cfg);
  if (!title) return undefined;
  const words = [...title[2]!.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll("'\\''", "'"));
  return { slot, version: title[1]!, cmdline: words };
}
