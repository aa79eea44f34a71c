// ProtoReader: reads protobuf wire data from a byte range; every malformation is a ProtoError naming its offset.
import { ProtoError } from './errors.js';
import { joinInt64, joinUint64, unzigzag64 } from './int64.js';
import { WireType } from './wire-type.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const malformed = (what: string, offset: number) =>
  new ProtoError('malformed', `malformed protobuf: ${what} at offset ${offset}`);

export class ProtoReader {
  readonly buf: Uint8Array;
  pos: number;
  readonly end: number;
  #view: DataView;
  // the last varint64, kept in fields so reading one allocates nothing
  #lo = 0;
  #hi = 0;

  constructor(buf: Uint8Array, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
    this.#view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** tag reads a field key; field number 0 and wire types 6 and 7 do not exist. */
  tag(): number {
    const at = this.pos;
    const t = this.uint32();
    if (t >>> 3 === 0) throw malformed('field number 0', at);
    if ((t & 7) > 5) throw malformed(`invalid wire type ${t & 7}`, at);
    return t;
  }

  /** uint32 reads a varint of up to ten bytes and keeps its low 32 bits (how int32 fields decode). */
  uint32(): number {
    const b = this.buf;
    const end = this.end;
    let p = this.pos;
    let v = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (p >= end) throw malformed('truncated varint', this.pos);
      const c = b[p++]!;
      if (shift < 32) v |= (c & 0x7f) << shift;
      if (c < 0x80) {
        if (shift === 63 && c > 1) throw malformed('varint overflows 64 bits', this.pos);
        this.pos = p;
        return v >>> 0;
      }
    }
    throw malformed('varint longer than ten bytes', this.pos);
  }

  int32(): number {
    return this.uint32() | 0;
  }

  sint32(): number {
    const n = this.uint32();
    return (n >>> 1) ^ -(n & 1);
  }

  #varint64(): void {
    const b = this.buf;
    const end = this.end;
    let p = this.pos;
    let lo = 0;
    let hi = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (p >= end) throw malformed('truncated varint', this.pos);
      const c = b[p++]!;
      const bits = c & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= bits << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (shift - 32);
      if (c < 0x80) {
        if (shift === 63 && c > 1) throw malformed('varint overflows 64 bits', this.pos);
        this.pos = p;
        this.#lo = lo >>> 0;
        this.#hi = hi >>> 0;
        return;
      }
    }
    throw malformed('varint longer than ten bytes', this.pos);
  }

  uint64(): number | bigint {
    this.#varint64();
    return joinUint64(this.#lo, this.#hi);
  }

  int64(): number | bigint {
    this.#varint64();
    return joinInt64(this.#lo, this.#hi);
  }

  sint64(): number | bigint {
    this.#varint64();
    const s = unzigzag64(this.#lo, this.#hi);
    return joinInt64(s.lo, s.hi);
  }

  bool(): boolean {
    this.#varint64();
    return this.#lo !== 0 || this.#hi !== 0;
  }

  #need(n: number): number {
    const at = this.pos;
    if (at + n > this.end) throw malformed(`${n}-byte value past the end`, at);
    this.pos = at + n;
    return at;
  }

  fixed32(): number {
    return this.#view.getUint32(this.#need(4), true);
  }

  sfixed32(): number {
    return this.#view.getInt32(this.#need(4), true);
  }

  fixed64(): number | bigint {
    const at = this.#need(8);
    return joinUint64(this.#view.getUint32(at, true), this.#view.getUint32(at + 4, true));
  }

  sfixed64(): number | bigint {
    const at = this.#need(8);
    return joinInt64(this.#view.getUint32(at, true), this.#view.getUint32(at + 4, true));
  }

  float(): number {
    return this.#view.getFloat32(this.#need(4), true);
  }

  double(): number {
    return this.#view.getFloat64(this.#need(8), true);
  }

  /** length reads a length prefix and returns where the delimited value ends. */
  length(): number {
    const at = this.pos;
    const n = this.uint32();
    if (this.pos + n > this.end) throw malformed(`length ${n} past the end`, at);
    return this.pos + n;
  }

  /** bytes returns a plain copy (Buffer#slice would share memory), so the result does not pin the input. */
  bytes(): Uint8Array {
    const end = this.length();
    const out = new Uint8Array(this.buf.subarray(this.pos, end));
    this.pos = end;
    return out;
  }

  /** string decodes UTF-8 strictly: proto3 strings must be valid UTF-8. */
  string(): string {
    const at = this.pos;
    const end = this.length();
    const start = this.pos;
    this.pos = end;
    // short ASCII strings (ids, types, keys) decode faster by hand than through TextDecoder
    if (end - start <= 32) {
      const b = this.buf;
      let s = '';
      let i = start;
      for (; i < end && b[i]! < 0x80; i++) s += String.fromCharCode(b[i]!);
      if (i === end) return s;
    }
    try {
      return utf8.decode(this.buf.subarray(start, end));
    } catch (cause) {
      throw new ProtoError('malformed', `malformed protobuf: invalid UTF-8 in string at offset ${at}`, {
        cause,
      });
    }
  }

  /** sub returns a reader over the next length-delimited value and steps past it. */
  sub(): ProtoReader {
    const end = this.length();
    const r = new ProtoReader(this.buf, this.pos, end);
    this.pos = end;
    return r;
  }

  /** skip steps over one field value of the given wire type (an unknown field); groups need their number. */
  skip(wt: number, no = 0): void {
    switch (wt) {
      case WireType.Varint:
        this.#varint64();
        return;
      case WireType.Fixed64:
        this.#need(8);
        return;
      case WireType.Bytes:
        this.pos = this.length();
        return;
      case WireType.Fixed32:
        this.#need(4);
        return;
      case WireType.StartGroup:
        // a group runs until the matching end-group key; nested groups nest
        for (;;) {
          if (this.done()) throw malformed('unterminated group', this.pos);
          const at = this.pos;
          const t = this.tag();
          if ((t & 7) === WireType.EndGroup) {
            if (no !== 0 && t >>> 3 !== no) throw malformed(`end of group ${t >>> 3} inside group ${no}`, at);
            return;
          }
          this.skip(t & 7, t >>> 3);
        }
      default:
        throw malformed(`unexpected wire type ${wt}`, this.pos);
    }
  }
}
