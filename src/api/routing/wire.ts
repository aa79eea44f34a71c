// Just enough protobuf wire format to rewrite field 1 (the metadata envelope) of messages whose schema the
// router does not know. Anything it cannot walk is reported, never guessed at.
import { ApiError } from '../errors.js';

export interface WireField {
  readonly no: number;
  readonly wireType: number;
  /** offset of the tag */
  readonly start: number;
  /** offset of the value (after the length prefix for wire type 2) */
  readonly valueStart: number;
  readonly end: number;
}

function readVarint(buf: Uint8Array, pos: number, what: string): [number, number] {
  let result = 0;
  let shift = 0;
  for (let i = pos; i < buf.length && i < pos + 10; i++) {
    const b = buf[i]!;
    // Past 2^53 precision is lost, which only matters for values; tags and lengths are far smaller.
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return [result, i + 1];
  }
  throw new ApiError('invalid-argument', `${what}: truncated varint at byte ${pos}`);
}

/** readFields lists the top-level fields of one encoded message. */
export function readFields(buf: Uint8Array, what = 'message'): WireField[] {
  const out: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const start = pos;
    const [tag, afterTag] = readVarint(buf, pos, what);
    const no = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (no === 0) throw new ApiError('invalid-argument', `${what}: field number 0 at byte ${start}`);
    let valueStart = afterTag;
    let end: number;
    switch (wireType) {
      case 0:
        end = readVarint(buf, afterTag, what)[1];
        break;
      case 1:
        end = afterTag + 8;
        break;
      case 2: {
        const [len, afterLen] = readVarint(buf, afterTag, what);
        valueStart = afterLen;
        end = afterLen + len;
        break;
      }
      case 5:
        end = afterTag + 4;
        break;
      default:
        throw new ApiError('invalid-argument', `${what}: unsupported wire type ${wireType} at byte ${start}`);
    }
    if (end > buf.length) throw new ApiError('invalid-argument', `${what}: field ${no} runs past the end`);
    out.push({ no, wireType, start, valueStart, end });
    pos = end;
  }
  return out;
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** lengthDelimited encodes field `no` with wire type 2. */
export const lengthDelimited = (no: number, value: Uint8Array): Buffer =>
  Buffer.concat([varint(no * 8 + 2), varint(value.length), value]);

const stringField = (no: number, s: string): Buffer => lengthDelimited(no, Buffer.from(s, 'utf8'));

/** The Metadata envelope (common.Metadata): hostname=1, error=2, status=3 (google.rpc.Status). */
export interface EnvelopeMetadata {
  readonly hostname?: string;
  readonly error?: string;
  readonly status?: { readonly code: number; readonly message: string };
}

/** encodeStatus writes google.rpc.Status{code=1, message=2}. */
function encodeStatus(s: { code: number; message: string }): Buffer {
  const parts: Buffer[] = [];
  if (s.code !== 0) parts.push(Buffer.concat([varint(1 * 8 + 0), varint(s.code >>> 0)]));
  if (s.message) parts.push(stringField(2, s.message));
  return Buffer.concat(parts);
}

/** encodeMetadata writes a common.Metadata body (without its own tag). */
export function encodeMetadata(md: EnvelopeMetadata): Buffer {
  const parts: Buffer[] = [];
  if (md.hostname) parts.push(stringField(1, md.hostname));
  if (md.error) parts.push(stringField(2, md.error));
  if (md.status) parts.push(lengthDelimited(3, encodeStatus(md.status)));
  return Buffer.concat(parts);
}

/**
 * withHostname sets metadata.hostname of one message, keeping whatever else its metadata says (a handler may
 * report a mid-stream error there). Every field-1 occurrence is folded into one, as protobuf merging would.
 */
export function withHostname(msg: Uint8Array, hostname: string, what = 'message'): Buffer {
  const fields = readFields(msg, what);
  const kept: Uint8Array[] = [];
  const inner: Uint8Array[] = [];
  for (const f of fields) {
    if (f.no !== 1) {
      kept.push(msg.subarray(f.start, f.end));
      continue;
    }
    if (f.wireType !== 2)
      throw new ApiError('invalid-argument', `${what}: field 1 is not a metadata message`);
    // keep error/status, drop any earlier hostname
    for (const g of readFields(msg.subarray(f.valueStart, f.end), `${what}.metadata`))
      if (g.no !== 1) inner.push(msg.subarray(f.valueStart + g.start, f.valueStart + g.end));
  }
  const metadata = Buffer.concat([stringField(1, hostname), ...inner]);
  return Buffer.concat([lengthDelimited(1, metadata), ...kept]);
}

/** withHostnameEach applies withHostname to every element of an `XResponse { repeated X messages = 1; }`. */
export function withHostnameEach(response: Uint8Array, hostname: string, what = 'response'): Buffer {
  const parts: Buffer[] = [];
  for (const f of readFields(response, what)) {
    if (f.no === 1 && f.wireType === 2)
      parts.push(lengthDelimited(1, withHostname(response.subarray(f.valueStart, f.end), hostname, what)));
    else parts.push(Buffer.from(response.subarray(f.start, f.end)));
  }
  return Buffer.concat(parts);
}
