// decodeSpec: protobuf bytes to a spec object holding every schema field, unknown fields skipped.
import type { ProtoScalar, ProtoSchema } from '../proto-schema.js';
import { type CompiledSchema, compile, type MapField, scalarZero, setKey, WIRE, zeroSpec } from './schema.js';
import { type JSONValue, readStruct } from './struct.js';
import { msFromProtoTime } from './time.js';
import { ProtoReader } from './wire-reader.js';
import { WireType } from './wire-type.js';

function readScalar(r: ProtoReader, kind: ProtoScalar): unknown {
  switch (kind) {
    case 'string':
      return r.string();
    case 'bytes':
      return r.bytes();
    case 'bool':
      return r.bool();
    case 'int32':
    case 'enum':
      return r.int32();
    case 'sint32':
      return r.sint32();
    case 'uint32':
      return r.uint32();
    case 'int64':
      return r.int64();
    case 'sint64':
      return r.sint64();
    case 'uint64':
      return r.uint64();
    case 'fixed32':
      return r.fixed32();
    case 'sfixed32':
      return r.sfixed32();
    case 'fixed64':
      return r.fixed64();
    case 'sfixed64':
      return r.sfixed64();
    case 'float':
      return r.float();
    case 'double':
      return r.double();
  }
}

function readTime(r: ProtoReader): number {
  let seconds = 0;
  let nanos = 0;
  while (!r.done()) {
    const t = r.tag();
    const no = t >>> 3;
    const wt = t & 7;
    if (no === 1 && wt === WireType.Varint) seconds = Number(r.int64());
    else if (no === 2 && wt === WireType.Varint) nanos = r.int32();
    else r.skip(wt, no);
  }
  return msFromProtoTime(seconds, nanos);
}

function readMapEntry(r: ProtoReader, field: MapField, out: Record<string, unknown>): void {
  const valueKind = field.value;
  let key = scalarZero(field.key);
  let value = typeof valueKind === 'string' ? scalarZero(valueKind) : zeroSpec(valueKind.schema);
  while (!r.done()) {
    const t = r.tag();
    const no = t >>> 3;
    const wt = t & 7;
    if (no === 1 && wt === WIRE[field.key]) key = readScalar(r, field.key);
    else if (no === 2 && typeof valueKind === 'string' && wt === WIRE[valueKind])
      value = readScalar(r, valueKind);
    else if (no === 2 && typeof valueKind !== 'string' && wt === WireType.Bytes)
      readMessage(r.sub(), compile(valueKind.schema), value as Record<string, unknown>);
    else r.skip(wt, no);
  }
  setKey(out, String(key), value);
}

/** readMessage decodes into `out`; a repeated occurrence of a singular message merges, as proto does. */
function readMessage(r: ProtoReader, cs: CompiledSchema, out: Record<string, unknown>): void {
  while (!r.done()) {
    const t = r.tag();
    const no = t >>> 3;
    const wt = t & 7;
    const f = cs.byNo.get(no);
    // unknown fields, and known ones in an unexpected wire type, are skipped as protobuf-go does
    if (f === undefined || (wt !== f.wt && !(f.packed && wt === WireType.Bytes))) {
      r.skip(wt, no);
      continue;
    }
    const field = f.field;
    switch (field.kind) {
      case 'map':
        readMapEntry(r.sub(), field, out[f.name] as Record<string, unknown>);
        break;
      case 'message': {
        const sub = r.sub();
        if (f.repeated) {
          const item = zeroSpec(field.schema);
          readMessage(sub, compile(field.schema), item);
          (out[f.name] as unknown[]).push(item);
        } else readMessage(sub, compile(field.schema), out[f.name] as Record<string, unknown>);
        break;
      }
      case 'struct':
        if (f.repeated) (out[f.name] as unknown[]).push(readStruct(r.sub()));
        else readStruct(r.sub(), out[f.name] as Record<string, JSONValue>);
        break;
      case 'timestamp':
      case 'duration': {
        const ms = readTime(r.sub());
        if (f.repeated) (out[f.name] as unknown[]).push(ms);
        else out[f.name] = ms;
        break;
      }
      default:
        if (f.repeated) {
          const list = out[f.name] as unknown[];
          if (f.packed && wt === WireType.Bytes) {
            // packed: a run of elements inside one length-delimited value
            const sub = r.sub();
            while (!sub.done()) list.push(readScalar(sub, field.kind));
          } else list.push(readScalar(r, field.kind));
        } else out[f.name] = readScalar(r, field.kind);
    }
  }
}

/** decodeSpec decodes spec bytes to a plain object holding every schema field (zero values for absent ones). */
export function decodeSpec(bytes: Uint8Array, schema: ProtoSchema): Record<string, unknown> {
  const out = zeroSpec(schema);
  readMessage(new ProtoReader(bytes), compile(schema), out);
  return out;
}
