// UUIDs as blkid prints them: an all-zero identifier means "none", so it yields undefined, never "0000…".

/** isZero tells whether every byte is 0, blkid's test for an unset UUID or serial. */
export const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/** formatUuid spells 16 bytes in RFC 4122 order, lowercase: 0f3c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b. */
export function formatUuid(b: Buffer): string | undefined {
  if (b.length !== 16) throw new RangeError(`a UUID is 16 bytes, got ${b.length}`);
  if (isZero(b)) return undefined;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** formatVolumeId spells a FAT serial number (4 bytes, little-endian) as blkid does: "1234-ABCD". */
export function formatVolumeId(b: Buffer): string | undefined {
  if (b.length !== 4) throw new RangeError(`a FAT volume id is 4 bytes, got ${b.length}`);
  if (isZero(b)) return undefined;
  const h = Buffer.from([b[3]!, b[2]!, b[1]!, b[0]!]).toString('hex').toUpperCase();
  return `${h.slice(0, 4)}-${h.slice(4)}`;
}
