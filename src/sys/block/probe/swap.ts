// Linux swap: the signature ends the first page, so its offset tells the page size (4 KiB to
// 64 KiB, the sizes blkid checks); a v1 header at 1 KiB then gives the last page, label and UUID.
import { type Magic, magic, type ProbeResult, type Prober, type Volume } from './prober.js';
import { label } from './text.js';
import { formatUuid } from './uuid.js';

const PAGE_SIZES = [0x1000, 0x2000, 0x4000, 0x8000, 0x10000];
const V0 = 'SWAP-SPACE';
const V1 = 'SWAPSPACE2';

// struct swap_header_v1_2, after 1 KiB of boot bits
const HDR = {
  offset: 1024,
  version: 0,
  lastpage: 4,
  nrBadpages: 8,
  uuid: 12,
  volume: 28,
  padding32: 172,
  size: 180,
} as const;

/** the bad-page list starts here, after the header fields and their padding (1024 + 512) */
const BADPAGES = 1536;

// TuxOnIce leaves a valid swap signature behind its own image, which starts with this
const TOI_MAGIC = Buffer.from([0xed, 0xc3, 0x02, 0xe9, 0x98, 0x56, 0xe5, 0x0c]);

/** blkid ignores swap areas smaller than ten 4 KiB pages. */
const MIN_SIZE = 10 * 4096;

/** byteOrder is the one that makes `version` 1: the header is in the byte order of the machine that wrote it. */
function byteOrder(h: Buffer): 'LE' | 'BE' | undefined {
  if (h.readUInt32LE(HDR.version) === 1) return 'LE';
  if (h.readUInt32BE(HDR.version) === 1) return 'BE';
  return undefined;
}

function probeSwap(vol: Volume, matched: Magic): ProbeResult | undefined {
  if (vol.size < MIN_SIZE) return undefined;
  const start = vol.read(0, TOI_MAGIC.length);
  if (!start || start.equals(TOI_MAGIC)) return undefined;
  const pageSize = matched.offset + matched.value.length;
  const base = { type: 'swap', blockSize: pageSize, filesystemBlockSize: pageSize } as const;
  // v0 (SWAP-SPACE) has neither label nor UUID, nor a header to check
  if (matched.value.toString('latin1') === V0) return base;
  const h = vol.read(HDR.offset, HDR.size);
  if (!h) return undefined;
  const order = byteOrder(h);
  if (!order) return undefined;
  const u32 = (at: number) => (order === 'LE' ? h.readUInt32LE(at) : h.readUInt32BE(at));
  const lastpage = u32(HDR.lastpage);
  // swapon refuses an area longer than its device, and more bad pages than fit between list and signature
  if (lastpage === 0 || (lastpage + 1) * pageSize > vol.size) return undefined;
  if (u32(HDR.nrBadpages) > Math.floor((matched.offset - BADPAGES) / 4)) return undefined;
  // blkid trusts label and UUID only when the padding behind them is clean
  const clean = h.readUInt32LE(HDR.padding32) === 0 && h.readUInt32LE(HDR.padding32 + 4) === 0;
  return {
    ...base,
    uuid: clean ? formatUuid(h.subarray(HDR.uuid, HDR.uuid + 16)) : undefined,
    label: clean ? label(h.subarray(HDR.volume, HDR.volume + 16)) : undefined,
    probedSize: pageSize * lastpage,
  };
}

export const swap: Prober = {
  name: 'swap',
  magics: PAGE_SIZES.flatMap((page) => [magic(page - 10, V0), magic(page - 10, V1)]),
  probe: probeSwap,
};
