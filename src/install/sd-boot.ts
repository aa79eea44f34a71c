// systemd-boot on the EFI partition, as upstream lays it out: the boot manager as the removable-media
// path EFI/BOOT/BOOTX64.EFI, the UKIs as EFI/Linux/Keel-<version>.efi, and loader/loader.conf. The disk
// keeps exactly two UKIs, the new one and the one it replaces (upstream deletes every other). Upstream
// picks the entry to boot with the EFI variable LoaderEntryDefault; Keel writes it as loader.conf's
// `default`, which systemd-boot reads when no variable is set, so the choice lives on the disk itself
// (a disk moved to another machine, or a VM without persistent variables, boots the same entry).
import { existsSync } from 'node:fs';
import { InstallError } from './errors.js';
import type { FileTree } from './file-tree.js';

/** the UKIs' name prefix: systemd-boot lists every EFI/Linux/*.efi, Keel's are the ones starting so */
export const UKI_PREFIX = 'Keel-';
/** seconds systemd-boot shows its menu before it boots the default (upstream writes 10, then 5 as a variable) */
export const LOADER_TIMEOUT_SECONDS = 3;

export const SD_BOOT_PATHS = {
  bootManager: 'EFI/BOOT/BOOTX64.EFI',
  ukiDir: 'EFI/Linux',
  loaderConf: 'loader/loader.conf',
} as const;

/** ukiFileName is the UKI's file name for a version ("v0.1.0" → "Keel-v0.1.0.efi"). */
export function ukiFileName(version: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(version))
    throw new InstallError(
      'invalid-argument',
      `version ${JSON.stringify(version)}: want letters, digits and . _ + - only (it names a file on FAT)`,
    );
  return `${UKI_PREFIX}${version}.efi`;
}

export interface UkiSlots {
  /** the file name the new UKI gets under EFI/Linux */
  readonly write: string;
  /** the UKI kept as the previous slot, if any */
  readonly previous?: string;
  /** Keel UKIs to delete first */
  readonly remove: readonly string[];
}

/**
 * planUkiSlots decides the UKI files: the currently booted (default) one stays as the previous slot,
 * every other Keel UKI goes, and the new one is written beside it. A version already present as the
 * current one gets a `~N` suffix (`Keel-v1~1.efi`), as upstream names a repeated version.
 */
export function planUkiSlots(
  existing: readonly string[],
  current: string | undefined,
  version: string,
): UkiSlots {
  const ours = existing.filter(isKeelUki);
  const kept = current !== undefined && ours.some((f) => sameName(f, current)) ? current : undefined;
  const base = ukiFileName(version).slice(0, -'.efi'.length);
  let write = `${base}.efi`;
  for (let n = 1; kept !== undefined && sameName(write, kept); n++) write = `${base}~${n}.efi`;
  return {
    write,
    ...(kept !== undefined ? { previous: kept } : {}),
    remove: ours.filter((f) => kept === undefined || !sameName(f, kept)),
  };
}

/** loaderConf is loader/loader.conf: the menu's timeout and the entry (a UKI's file name) to boot. */
export function loaderConf(defaultEntry: string, timeoutSeconds = LOADER_TIMEOUT_SECONDS): string {
  return `timeout ${timeoutSeconds}\ndefault ${defaultEntry}\n`;
}

/** loaderDefault reads the `default` of a loader.conf; undefined when it names none. */
export function loaderDefault(conf: string): string | undefined {
  for (const line of conf.split('\n')) {
    const m = /^\s*default\s+(\S+)\s*$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

export interface SdBootAssets {
  /** systemd-boot's EFI binary (Debian's systemd-bootx64.efi) */
  readonly systemdBoot: string;
  /** the UKI to install */
  readonly uki: string;
}

export interface SdBootResult {
  /** the new UKI's file name under EFI/Linux, now the default entry */
  readonly entry: string;
  /** the previous slot, kept */
  readonly previous?: string;
}

/**
 * installSdBoot writes systemd-boot and the UKI into an EFI partition's files, keeps the default entry it
 * finds there as the previous slot, and makes the new UKI the default.
 */
export async function installSdBoot(
  efi: FileTree,
  assets: SdBootAssets,
  version: string,
): Promise<SdBootResult> {
  for (const d of [SD_BOOT_PATHS.ukiDir, 'EFI/BOOT', 'loader']) await efi.mkdirs(d);
  const conf = (await efi.readText(SD_BOOT_PATHS.loaderConf)) ?? '';
  const slots = planUkiSlots(await efi.list(SD_BOOT_PATHS.ukiDir), loaderDefault(conf), version);
  for (const f of slots.remove) await efi.remove(`${SD_BOOT_PATHS.ukiDir}/${f}`);
  await copyAsset(efi, assets.uki, `${SD_BOOT_PATHS.ukiDir}/${slots.write}`, 'UKI');
  await copyAsset(efi, assets.systemdBoot, SD_BOOT_PATHS.bootManager, 'systemd-boot');
  // loader.conf last: until it names the new UKI, the old default still boots
  await efi.writeText(SD_BOOT_PATHS.loaderConf, loaderConf(slots.write));
  return { entry: slots.write, ...(slots.previous ? { previous: slots.previous } : {}) };
}

/** copyAsset copies a boot asset in; a missing one is named as such. */
export async function copyAsset(tree: FileTree, from: string, to: string, what: string): Promise<void> {
  if (!existsSync(from)) throw new InstallError('bad-asset', `${what}: ${from} does not exist`);
  await tree.copyIn(from, to);
}

const isKeelUki = (f: string) => f.toLowerCase().startsWith(UKI_PREFIX.toLowerCase()) && /\.efi$/i.test(f);
// FAT compares names without case, and so does systemd-boot's `default` pattern
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
