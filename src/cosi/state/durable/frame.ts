// Frames: checksummed batches of records, and the scan that tells a torn tail from corruption.
import { crc32 } from './crc32.js';
import { errCorrupt } from './errors.js';

// Header: payload length, CRC of the payload, CRC of those 8 bytes. The header's own CRC means a
// damaged length is caught as damage instead of being read as a frame that runs past the end.
export const HEADER_SIZE = 12;
/** No frame is larger; a bigger length with a good header checksum is corruption. */
export const MAX_FRAME = 256 * 1024 * 1024;
const LEN_SIZE = 4;

/** encodeFrame packs records (each length-prefixed) into one frame, written and synced as a unit. */
export function encodeFrame(records: readonly Uint8Array[]): Buffer {
  let len = 0;
  for (const r of records) len += LEN_SIZE + r.length;
  const buf = Buffer.allocUnsafe(HEADER_SIZE + len);
  let at = HEADER_SIZE;
  for (const r of records) {
    buf.writeUInt32LE(r.length, at);
    buf.set(r, at + LEN_SIZE);
    at += LEN_SIZE + r.length;
  }
  buf.writeUInt32LE(len, 0);
  buf.writeUInt32LE(crc32(buf.subarray(HEADER_SIZE)), 4);
  buf.writeUInt32LE(crc32(buf.subarray(0, 8)), 8);
  return buf;
}

export interface Frame {
  /** file offset of the frame header */
  readonly offset: number;
  readonly records: readonly Uint8Array[];
}

/** TornTail is the unfinished last write found by a scan; everything from `offset` on is dropped. */
export interface TornTail {
  readonly offset: number;
  readonly bytes: number;
  readonly reason: string;
}

export interface ScanResult {
  readonly frames: Frame[];
  /** offset just past the last good frame */
  readonly end: number;
  readonly torn?: TornTail;
}

/**
 * How the end of a file may look. 'sealed' files were complete and synced before anything newer
 * was written, so any defect is corruption. In the 'active' log only the last frame can be
 * unfinished, because each frame is synced before the next is written.
 */
export type TailPolicy = 'sealed' | 'active';

const allZero = (b: Uint8Array): boolean => {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
};

function splitRecords(payload: Uint8Array, file: string, offset: number): Uint8Array[] {
  const view = Buffer.from(payload.buffer, payload.byteOffset, payload.length);
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < view.length) {
    if (view.length - at < LEN_SIZE) throw errCorrupt(file, offset, 'frame ends inside a record length');
    const len = view.readUInt32LE(at);
    if (len === 0 || at + LEN_SIZE + len > view.length)
      throw errCorrupt(file, offset, `record length ${len} does not fit the frame`);
    out.push(view.subarray(at + LEN_SIZE, at + LEN_SIZE + len));
    at += LEN_SIZE + len;
  }
  return out;
}

/** scanFrames reads frames from `start` to the end of `buf`; `file` only names the file in errors. */
export function scanFrames(buf: Buffer, start: number, file: string, policy: TailPolicy): ScanResult {
  const frames: Frame[] = [];
  let at = start;
  const torn = (reason: string): ScanResult => {
    if (policy === 'sealed') throw errCorrupt(file, at, reason);
    return { frames, end: at, torn: { offset: at, bytes: buf.length - at, reason } };
  };
  while (at < buf.length) {
    const rest = buf.length - at;
    if (rest < HEADER_SIZE) return torn('incomplete frame header');
    const len = buf.readUInt32LE(at);
    const payloadCRC = buf.readUInt32LE(at + 4);
    if (crc32(buf.subarray(at, at + 8)) !== buf.readUInt32LE(at + 8)) {
      // File systems may extend a file before its data lands; such a tail reads as zeros.
      if (allZero(buf.subarray(at))) return torn('zero-filled tail');
      throw errCorrupt(file, at, 'bad frame header checksum');
    }
    if (len === 0 || len > MAX_FRAME) throw errCorrupt(file, at, `impossible frame length ${len}`);
    const end = at + HEADER_SIZE + len;
    if (end > buf.length) return torn(`frame of ${len} bytes cut after ${rest - HEADER_SIZE}`);
    const payload = buf.subarray(at + HEADER_SIZE, end);
    if (crc32(payload) !== payloadCRC) {
      // A bad checksum is an unfinished write only in the very last frame; earlier, it is damage.
      if (end === buf.length) return torn('last frame checksum mismatch');
      throw errCorrupt(file, at, 'bad frame checksum');
    }
    frames.push({ offset: at, records: splitRecords(payload, file, at) });
    at = end;
  }
  return { frames, end: at };
}
