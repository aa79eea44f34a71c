// A disk image held in memory, for the pure read and write paths: a sector source and a sink for writes.
import type { SectorSource } from '../../../../src/sys/block/gpt/decode.js';
import type { SectorWrite } from '../../../../src/sys/block/gpt/encode.js';

export interface MemoryDisk {
  readonly bytes: Buffer;
  readonly shape: { readonly sectorSize: number; readonly diskSectors: bigint };
  readonly read: SectorSource;
  apply(writes: readonly SectorWrite[]): void;
  /** sector `lba` as a view: changes to it change the disk */
  sector(lba: bigint): Buffer;
}

export function memoryDisk(diskSectors: number, sectorSize: number): MemoryDisk {
  const bytes = Buffer.alloc(diskSectors * sectorSize);
  const at = (lba: bigint) => Number(lba) * sectorSize;
  return {
    bytes,
    shape: { sectorSize, diskSectors: BigInt(diskSectors) },
    read: (lba, count) => Buffer.from(bytes.subarray(at(lba), at(lba) + count * sectorSize)),
    apply(writes) {
      for (const w of writes) w.data.copy(bytes, at(w.lba));
    },
    sector: (lba) => bytes.subarray(at(lba), at(lba) + sectorSize),
  };
}
