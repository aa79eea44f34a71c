// META tag numbers, with upstream's names (pkg/machinery/meta), and the rules for which a caller may use.
import { MetaError } from './errors.js';

/** MetaTag names the tags Talos defines; 0 ends a block, 1–2 are syslinux's, 3–5 are reserved. */
export const MetaTag = {
  /** the boot label an upgrade replaced, for falling back; deleted once the node is running and ready */
  Upgrade: 6,
  /** installer image reference of a staged upgrade */
  StagedUpgradeImageRef: 7,
  /** JSON install options of a staged upgrade */
  StagedUpgradeInstallOptions: 8,
  /** JSON encryption config of the STATE partition */
  StateEncryptionConfig: 9,
  /** network config for the metal platform (`talosctl meta write 0xa`) */
  MetalNetworkPlatformConfig: 10,
  /** the `${code}` of the talos.config download URL */
  DownloadURLCode: 11,
  UserReserved1: 12,
  UserReserved2: 13,
  UserReserved3: 14,
  /** overrides the SMBIOS UUID */
  UUIDOverride: 15,
  /** a per-machine token, since UUIDs can repeat or be all zeros */
  UniqueMachineToken: 16,
  /** the bootloader a disk image was made with; wiped on first boot */
  DiskImageBootloader: 17,
  /** JSON list of CEL selectors of volumes to wipe on the next boot */
  StagedWipeSelectors: 18,
} as const;

export type MetaTagName = keyof typeof MetaTag;

/** TAG_END marks the end of a block's TLVs; it can never hold a value. */
export const TAG_END = 0;

/** SYSLINUX_TAGS are syslinux's own (1 = boot once, 2 = menu save); Talos never writes them. */
export const SYSLINUX_TAGS: readonly number[] = [1, 2];

/** formatTag spells a tag as the MetaKey resource ID does: `0x0a`. */
export const formatTag = (tag: number): string => `0x${tag.toString(16).padStart(2, '0')}`;

/** isU8 tells whether a number can be a tag at all. */
export const isU8 = (tag: number): boolean => Number.isInteger(tag) && tag >= 0 && tag <= 255;

/** checkWritableTag refuses what a caller may not set or delete: non-u8 numbers, the end marker, syslinux's tags. */
export function checkWritableTag(tag: number): void {
  if (!isU8(tag)) throw new MetaError('bad-tag', `tag ${tag}: not a u8 (0–255)`);
  if (tag === TAG_END) throw new MetaError('bad-tag', 'tag 0x00: reserved as the end marker');
  if (SYSLINUX_TAGS.includes(tag)) {
    throw new MetaError('bad-tag', `tag ${formatTag(tag)}: reserved for syslinux (tags 0x01–0x02)`);
  }
}

/** parseTag reads `0x0a`, `0xa` or `10` as a tag, as `talosctl meta write` takes them. */
export function parseTag(text: string): number {
  const t = text.trim();
  const n = /^0x[0-9a-f]{1,2}$/i.test(t)
    ? Number.parseInt(t.slice(2), 16)
    : /^\d{1,3}$/.test(t)
      ? Number(t)
      : NaN;
  if (!isU8(n))
    throw new MetaError('bad-tag', `tag ${JSON.stringify(text)}: not a u8 (0–255, decimal or 0x hex)`);
  return n;
}
