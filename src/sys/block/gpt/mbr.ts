// The protective MBR in the first 512 bytes of LBA 0: one partition of type 0xEE from LBA 1 over the whole
// disk (capped at 0xFFFFFFFF sectors, all a 32-bit field holds), so MBR-only tools see the disk as in use.
// Its boot flag is upstream's option for legacy BIOSes that boot no disk without an active partition.

export const MBR_SIZE = 512;
const ENTRIES = 446;
const ENTRY_SIZE = 16;
/** bytes before the partition entries: boot code (440), disk signature (4) and 2 reserved bytes */
const BOOT_AREA = ENTRIES;
const PROTECTIVE_TYPE = 0xee;
const MAX_SECTORS = 0xffffffffn;

export interface ProtectiveMbrOptions {
  /** mark the 0xEE partition active (0x80) */
  readonly bootable?: boolean;
  /** the sector now at LBA 0, whose boot code and disk signature are kept (GRUB's boot.img lives there) */
  readonly keep?: Uint8Array;
}

/** encodeProtectiveMbr builds the 512 bytes for a disk of `diskSectors` logical sectors. */
export function encodeProtectiveMbr(diskSectors: bigint, opts: ProtectiveMbrOptions = {}): Buffer {
  const b = Buffer.alloc(MBR_SIZE);
  if (opts.keep) b.set(opts.keep.subarray(0, BOOT_AREA));
  const e = b.subarray(ENTRIES, ENTRIES + ENTRY_SIZE);
  e[0] = opts.bootable ? 0x80 : 0x00;
  // CHS of the start (0/0/2: LBA 1) and of the end (the "beyond CHS" marker), as the UEFI spec asks
  e.set([0x00, 0x02, 0x00], 1);
  e[4] = PROTECTIVE_TYPE;
  e.set([0xff, 0xff, 0xff], 5);
  e.writeUInt32LE(1, 8);
  const size = diskSectors - 1n;
  e.writeUInt32LE(Number(size > MAX_SECTORS ? MAX_SECTORS : size), 12);
  b[510] = 0x55;
  b[511] = 0xaa;
  return b;
}

/**
 * MbrKind classifies LBA 0 as the kernel does before it trusts a GPT: protective (one 0xEE entry, the rest
 * empty), hybrid (0xEE beside real MBR partitions), legacy (an MBR table with no 0xEE), none (no 55AA).
 */
export type MbrKind = 'protective' | 'hybrid' | 'legacy' | 'none';

export interface MbrInfo {
  readonly kind: MbrKind;
  /** the 0xEE entry is marked active */
  readonly bootable: boolean;
}

export function decodeMbr(sector0: Uint8Array): MbrInfo {
  const b = Buffer.from(sector0.buffer, sector0.byteOffset, MBR_SIZE);
  if (b[510] !== 0x55 || b[511] !== 0xaa) return { kind: 'none', bootable: false };
  let protective = -1;
  let others = 0;
  for (let i = 0; i < 4; i++) {
    const type = b[ENTRIES + i * ENTRY_SIZE + 4]!;
    if (type === PROTECTIVE_TYPE && protective < 0) protective = i;
    else if (type !== 0) others++;
  }
  if (protective < 0) return { kind: 'legacy', bootable: false };
  return {
    kind: others ? 'hybrid' : 'protective',
    bootable: b[ENTRIES + protective * ENTRY_SIZE] === 0x80,
  };
}
