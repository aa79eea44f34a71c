// LUKS1 and LUKS2: the big-endian binary header at byte 0 gives version, UUID and, for LUKS2, label
// and subsystem. A LUKS2 header is taken only at the offset it names and with its checksum intact;
// when the primary fails, the secondary copy at one of the offsets cryptsetup uses stands in for it.
import { createHash, getHashes } from 'node:crypto';
import { type Magic, magic, type ProbeResult, type Prober, type Volume } from './prober.js';
import { cString, label } from './text.js';

const PRIMARY = 'LUKS\xba\xbe';
const SECONDARY = 'SKUL\xba\xbe';
const SECONDARY_OFFSETS = [0x4000, 0x8000, 0x10000, 0x20000, 0x40000, 0x80000, 0x100000, 0x200000, 0x400000];
// hdr_size (binary header plus JSON area) is 16 KiB doubled up to 4 MiB, and the secondary header
// starts where the primary's area ends, so one list gives both
const HDR_SIZES = new Set(SECONDARY_OFFSETS);

// struct luks_phdr (LUKS1) and struct luks2_hdr_disk share magic, version and the UUID's place
const HDR = {
  version: 6,
  uuid: 168,
  uuidLength: 40,
  size: 512,
  // LUKS1
  cipherName: 8,
  hashSpec: 72,
  keyBytes: 108,
  // LUKS2
  hdrSize: 8,
  label: 24,
  checksumAlg: 72,
  subsystem: 208,
  hdrOffset: 256,
  csum: 448,
  csumLength: 64,
} as const;

/** printable tells whether a NUL-terminated field holds non-empty printable ASCII, as cryptsetup writes. */
function printable(field: Buffer): boolean {
  const end = field.indexOf(0);
  if (end <= 0) return false;
  return field.subarray(0, end).every((c) => c >= 0x20 && c < 0x7f);
}

const uuidOf = (h: Buffer): string | undefined =>
  label(h.subarray(HDR.uuid, HDR.uuid + HDR.uuidLength), 'latin1');

function luks1(h: Buffer): ProbeResult | undefined {
  const valid =
    printable(h.subarray(HDR.cipherName, HDR.cipherName + 32)) &&
    printable(h.subarray(HDR.hashSpec, HDR.hashSpec + 32)) &&
    h.readUInt32BE(HDR.keyBytes) !== 0;
  return valid ? { type: 'crypto_LUKS', uuid: uuidOf(h) } : undefined;
}

/** checksumMatches hashes the whole header area with the csum field zeroed; an algorithm Node lacks is not checked. */
function checksumMatches(area: Buffer): boolean {
  const alg = cString(area.subarray(HDR.checksumAlg, HDR.checksumAlg + 32)).toString('latin1');
  if (!getHashes().includes(alg)) return true;
  const stored = Buffer.from(area.subarray(HDR.csum, HDR.csum + HDR.csumLength));
  const zeroed = Buffer.from(area);
  zeroed.fill(0, HDR.csum, HDR.csum + HDR.csumLength);
  const digest = createHash(alg).update(zeroed).digest();
  return digest.length <= HDR.csumLength && digest.equals(stored.subarray(0, digest.length));
}

function luks2(vol: Volume, h: Buffer, offset: number): ProbeResult | undefined {
  const hdrSize = h.readBigUInt64BE(HDR.hdrSize);
  if (h.readBigUInt64BE(HDR.hdrOffset) !== BigInt(offset) || !HDR_SIZES.has(Number(hdrSize)))
    return undefined;
  const area = vol.read(offset, Number(hdrSize));
  if (!area || !checksumMatches(area)) return undefined;
  return {
    type: 'crypto_LUKS',
    uuid: uuidOf(h),
    label: label(h.subarray(HDR.label, HDR.label + 48)),
    subsystem: label(h.subarray(HDR.subsystem, HDR.subsystem + 48)),
  };
}

export const luks: Prober = {
  name: 'luks',
  magics: [magic(0, PRIMARY), ...SECONDARY_OFFSETS.map((o) => magic(o, SECONDARY))],
  probe(vol, matched: Magic) {
    const h = vol.read(matched.offset, HDR.size);
    if (!h) return undefined;
    const version = h.readUInt16BE(HDR.version);
    // LUKS1 has no secondary header
    if (version === 1 && matched.offset === 0) return luks1(h);
    if (version === 2) return luks2(vol, h, matched.offset);
    return undefined;
  },
};
