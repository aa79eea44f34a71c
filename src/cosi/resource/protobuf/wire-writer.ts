// ProtoWriter: appends protobuf wire data to one growable buffer; nested lengths are patched in place.
import { type Int64Like, type Split, splitInt64, zigzag64 } from './int64.js';
import type { WireType } from './wire-type.js';

const TWO32 = 4294967296;
const utf8 = new TextEncoder();

/** varintSize is how many bytes the varint encoding of a uint32 takes. */
export const varintSize = (v: number): number =>
  v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;

export class ProtoWriter {
  #buf: Uint8Array;
  #view: DataView;
  #pos = 0;

  constructor(initialSize = 128) {
    this.#buf = new Uint8Array(initialSize);
    this.#view = new DataView(this.#buf.buffer);
  }

  get length(): number {
    return this.#pos;
  }

  #reserve(n: number): void {
    const need = this.#pos + n;
    if (need <= this.#buf.length) return;
    const next = new Uint8Array(Math.max(this.#buf.length * 2, need));
    next.set(this.#buf.subarray(0, this.#pos));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }

  /** tag writes a field key. */
  tag(no: number, wt: WireType): this {
    return this.uint32(no * 8 + wt);
  }

  /** uint32 writes a varint of a value in [0, 2^32). */
  uint32(v: number): this {
    this.#reserve(5);
    const b = this.#buf;
    let p = this.#pos;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.#pos = p;
    return this;
  }

  /** int32 writes a signed varint; negatives sign-extend to ten bytes, as every proto runtime does. */
  int32(v: number): this {
    return v >= 0 ? this.uint32(v) : this.varint64(v >>> 0, 0xffffffff);
  }

  /** varint64 writes the varint of a 64-bit value given as low and high words. */
  varint64(lo: number, hi: number): this {
    this.#reserve(10);
    const b = this.#buf;
    let p = this.#pos;
    while (hi > 0 || lo > 0x7f) {
      b[p++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    b[p++] = lo;
    this.#pos = p;
    return this;
  }

  #split(s: Split): this {
    return this.varint64(s.lo, s.hi);
  }

  int64(v: Int64Like): this {
    if (typeof v === 'number' && v >= 0 && v < TWO32) return this.uint32(v);
    return this.#split(splitInt64(v));
  }

  uint64(v: Int64Like): this {
    return this.int64(v);
  }

  sint32(v: number): this {
    return this.uint32(((v << 1) ^ (v >> 31)) >>> 0);
  }

  sint64(v: Int64Like): this {
    return this.#split(zigzag64(v));
  }

  bool(v: boolean): this {
    this.#reserve(1);
    this.#buf[this.#pos++] = v ? 1 : 0;
    return this;
  }

  fixed32(v: number): this {
    this.#reserve(4);
    this.#view.setUint32(this.#pos, v >>> 0, true);
    this.#pos += 4;
    return this;
  }

  sfixed32(v: number): this {
    return this.fixed32(v);
  }

  fixed64(v: Int64Like): this {
    const { lo, hi } = splitInt64(v);
    this.#reserve(8);
    this.#view.setUint32(this.#pos, lo, true);
    this.#view.setUint32(this.#pos + 4, hi, true);
    this.#pos += 8;
    return this;
  }

  sfixed64(v: Int64Like): this {
    return this.fixed64(v);
  }

  float(v: number): this {
    this.#reserve(4);
    this.#view.setFloat32(this.#pos, v, true);
    this.#pos += 4;
    return this;
  }

  double(v: number): this {
    this.#reserve(8);
    this.#view.setFloat64(this.#pos, v, true);
    this.#pos += 8;
    return this;
  }

  /** bytes writes a length-delimited byte string. */
  bytes(v: Uint8Array): this {
    this.uint32(v.length);
    this.#reserve(v.length);
    this.#buf.set(v, this.#pos);
    this.#pos += v.length;
    return this;
  }

  /** string writes UTF-8 with its length; lone surrogates become U+FFFD as TextEncoder does. */
  string(s: string): this {
    // 42 UTF-16 units are at most 126 UTF-8 bytes, so the length fits the one reserved byte
    if (s.length <= 42) {
      this.#reserve(1 + s.length * 3);
      const b = this.#buf;
      const start = this.#pos;
      let p = start + 1;
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c < 0x80) {
          b[p++] = c;
          continue;
        }
        if (c < 0x800) {
          b[p++] = 0xc0 | (c >> 6);
          b[p++] = 0x80 | (c & 0x3f);
          continue;
        }
        if (c >= 0xd800 && c < 0xe000) {
          const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
          if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
            b[p++] = 0xf0 | (c >> 18);
            b[p++] = 0x80 | ((c >> 12) & 0x3f);
            b[p++] = 0x80 | ((c >> 6) & 0x3f);
            b[p++] = 0x80 | (c & 0x3f);
            continue;
          }
          c = 0xfffd;
        }
        b[p++] = 0xe0 | (c >> 12);
        b[p++] = 0x80 | ((c >> 6) & 0x3f);
        b[p++] = 0x80 | (c & 0x3f);
      }
      b[start] = p - start - 1;
      this.#pos = p;
      return this;
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.uint32(n);
    this.#reserve(n);
    utf8.encodeInto(s, this.#buf.subarray(this.#pos, this.#pos + n));
    this.#pos += n;
    return this;
  }

  /** fork starts a length-delimited value whose length is not known yet; pass the mark to join. */
  fork(): number {
    this.#reserve(1);
    return this.#pos++;
  }

  /** join writes the length of everything since fork, moving the content if the length needs more bytes. */
  join(mark: number): this {
    const len = this.#pos - mark - 1;
    const n = varintSize(len);
    if (n > 1) {
      this.#reserve(n - 1);
      this.#buf.copyWithin(mark + n, mark + 1, this.#pos);
      this.#pos += n - 1;
    }
    const b = this.#buf;
    let p = mark;
    let v = len;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p] = v;
    return this;
  }

  /** finish returns a copy of what was written. */
  finish(): Uint8Array {
    return this.#buf.slice(0, this.#pos);
  }
}
