// encodeSpec: a spec object to protobuf bytes by its schema (proto3 rules as protoc-gen-go applies them).
import { compareUTF8 } from '../output/goyaml/sort-keys.js';
import type { ProtoScalar, ProtoSchema } from '../proto-schema.js';
import { ProtoError } from './errors.js';
import { isInt64, isUint64 } from './int64.js';
import { type Compiled, type CompiledSchema, compile, type MapField, WIRE } from './schema.js';
import { writeStruct } from './struct.js';
import { durationFromMs, timestampFromMs } from './time.js';
import { WireType } from './wire-type.js';
import { ProtoWriter } from './wire-writer.js';

const describeValue = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : v instanceof Uint8Array
        ? 'bytes'
        : typeof v === 'string'
          ? `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
          : typeof v === 'object'
            ? 'an object'
            : `${typeof v} ${String(v)}`;

/** at names a property (string key) or list element (number) below path; built only when needed. */
const at = (path: string, key?: string | number): string =>
  key === undefined ? path : typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;

const invalid = (path: string, want: string, got: unknown, key?: string | number) =>
  new ProtoError('invalid-value', `${at(path, key)}: expected ${want}, got ${describeValue(got)}`);

const isInt32 = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31;
const isUint32 = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 32;

/** isDefault says whether a correctly typed scalar equals its proto3 default (and so is not written). */
function isDefault(kind: ProtoScalar, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return v === '';
    case 'bytes':
      return v instanceof Uint8Array && v.length === 0;
    case 'bool':
      return v === false;
    case 'float':
    case 'double':
      // -0 differs from the default bit pattern, so protoc-gen-go writes it
      return v === 0 && !Object.is(v, -0);
    default:
      return v === 0 || v === 0n;
  }
}

function writeScalar(
  w: ProtoWriter,
  kind: ProtoScalar,
  v: unknown,
  path: string,
  key?: string | number,
): void {
  switch (kind) {
    case 'string':
      if (typeof v !== 'string') throw invalid(path, 'a string', v, key);
      w.string(v);
      return;
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw invalid(path, 'a Uint8Array', v, key);
      w.bytes(v);
      return;
    case 'bool':
      if (typeof v !== 'boolean') throw invalid(path, 'a boolean', v, key);
      w.bool(v);
      return;
    case 'int32':
    case 'enum':
      if (!isInt32(v)) throw invalid(path, 'a 32-bit integer', v, key);
      w.int32(v);
      return;
    case 'sint32':
      if (!isInt32(v)) throw invalid(path, 'a 32-bit integer', v, key);
      w.sint32(v);
      return;
    case 'sfixed32':
      if (!isInt32(v)) throw invalid(path, 'a 32-bit integer', v, key);
      w.sfixed32(v);
      return;
    case 'uint32':
      if (!isUint32(v)) throw invalid(path, 'an unsigned 32-bit integer', v, key);
      w.uint32(v);
      return;
    case 'fixed32':
      if (!isUint32(v)) throw invalid(path, 'an unsigned 32-bit integer', v, key);
      w.fixed32(v);
      return;
    case 'int64':
      if (!isInt64(v)) throw invalid(path, 'a 64-bit integer (number or bigint)', v, key);
      w.int64(v);
      return;
    case 'sint64':
      if (!isInt64(v)) throw invalid(path, 'a 64-bit integer (number or bigint)', v, key);
      w.sint64(v);
      return;
    case 'sfixed64':
      if (!isInt64(v)) throw invalid(path, 'a 64-bit integer (number or bigint)', v, key);
      w.sfixed64(v);
      return;
    case 'uint64':
      if (!isUint64(v)) throw invalid(path, 'an unsigned 64-bit integer (number or bigint)', v, key);
      w.uint64(v);
      return;
    case 'fixed64':
      if (!isUint64(v)) throw invalid(path, 'an unsigned 64-bit integer (number or bigint)', v, key);
      w.fixed64(v);
      return;
    case 'float':
      if (typeof v !== 'number') throw invalid(path, 'a number', v, key);
      w.float(v);
      return;
    case 'double':
      if (typeof v !== 'number') throw invalid(path, 'a number', v, key);
      w.double(v);
      return;
  }
}

function writeTime(
  w: ProtoWriter,
  kind: 'timestamp' | 'duration',
  v: unknown,
  path: string,
  key?: string | number,
): void {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw invalid(path, 'milliseconds as a finite number', v, key);
  const t = kind === 'timestamp' ? timestampFromMs(v) : durationFromMs(v);
  if (t.seconds !== 0) w.tag(1, WireType.Varint).int64(t.seconds);
  if (t.nanos !== 0) w.tag(2, WireType.Varint).int32(t.nanos);
}

function writeMessage(w: ProtoWriter, value: unknown, cs: CompiledSchema, path: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array)
    throw invalid(path, 'an object', value);
  const obj = value as Record<string, unknown>;
  for (const f of cs.fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    writeField(w, f, v, path);
  }
}

/** writeOne writes one occurrence of a field; defaults are skipped only outside repeated fields. */
function writeOne(
  w: ProtoWriter,
  f: Compiled,
  v: unknown,
  path: string,
  key: string | number,
  inList: boolean,
): void {
  const field = f.field;
  switch (field.kind) {
    case 'message': {
      w.tag(f.no, WireType.Bytes);
      const mark = w.fork();
      writeMessage(w, v, compile(field.schema), at(path, key));
      w.join(mark);
      return;
    }
    case 'timestamp':
    case 'duration': {
      w.tag(f.no, WireType.Bytes);
      const mark = w.fork();
      writeTime(w, field.kind, v, path, key);
      w.join(mark);
      return;
    }
    case 'struct': {
      w.tag(f.no, WireType.Bytes);
      const mark = w.fork();
      writeStruct(w, v, at(path, key));
      w.join(mark);
      return;
    }
    case 'map':
      return;
    default:
      if (!inList && !field.optional && isDefault(field.kind, v)) return;
      w.tag(f.no, f.wt);
      writeScalar(w, field.kind, v, path, key);
  }
}

/** writeField writes the property f.name of the message at path. */
function writeField(w: ProtoWriter, f: Compiled, v: unknown, path: string): void {
  const field = f.field;
  if (field.kind === 'map') {
    writeMap(w, f, field, v, at(path, f.name));
    return;
  }
  if (!f.repeated) {
    writeOne(w, f, v, path, f.name, false);
    return;
  }
  const list = at(path, f.name);
  if (!Array.isArray(v)) throw invalid(list, 'an array', v);
  if (v.length === 0) return;
  if (f.packed) {
    w.tag(f.no, WireType.Bytes);
    const mark = w.fork();
    for (let i = 0; i < v.length; i++) writeScalar(w, field.kind as ProtoScalar, v[i], list, i);
    w.join(mark);
    return;
  }
  for (let i = 0; i < v.length; i++) {
    const item = v[i];
    if (item === null || item === undefined) throw invalid(list, 'a value', item, i);
    writeOne(w, f, item, list, i, true);
  }
}

/** mapKey turns a record key back into the typed map key it stands for. */
function mapKey(kind: ProtoScalar, k: string, path: string): unknown {
  switch (kind) {
    case 'string':
      return k;
    case 'bool':
      if (k === 'true' || k === 'false') return k === 'true';
      throw invalid(path, 'a bool map key ("true" or "false")', k);
    default: {
      if (!/^-?\d+$/.test(k)) throw invalid(path, `an integer map key`, k);
      const n = Number(k);
      return Number.isSafeInteger(n) ? n : BigInt(k);
    }
  }
}

function compareKeys(kind: ProtoScalar, a: unknown, b: unknown): number {
  // code-point order equals UTF-8 byte order, which is how Go sorts string keys
  if (kind === 'string') return compareUTF8(a as string, b as string);
  if (kind === 'bool') return Number(a) - Number(b);
  const x = BigInt(a as number | bigint);
  const y = BigInt(b as number | bigint);
  return x < y ? -1 : x > y ? 1 : 0;
}

function writeMap(w: ProtoWriter, f: Compiled, field: MapField, v: unknown, path: string): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array)
    throw invalid(path, 'a record', v);
  const rec = v as Record<string, unknown>;
  const entries = Object.keys(rec).map((k) => ({
    k,
    key: mapKey(field.key, k, `${path}[${JSON.stringify(k)}]`),
  }));
  entries.sort((a, b) => compareKeys(field.key, a.key, b.key));
  const valueKind = field.value;
  for (const { k, key } of entries) {
    const at = `${path}[${JSON.stringify(k)}]`;
    const val = rec[k];
    w.tag(f.no, WireType.Bytes);
    const mark = w.fork();
    w.tag(1, WIRE[field.key]);
    writeScalar(w, field.key, key, at);
    if (typeof valueKind === 'string') {
      w.tag(2, WIRE[valueKind]);
      writeScalar(w, valueKind, val, at);
    } else {
      if (val === null || val === undefined) throw invalid(at, 'a message', val);
      w.tag(2, WireType.Bytes);
      const inner = w.fork();
      writeMessage(w, val, compile(valueKind.schema), at);
      w.join(inner);
    }
    w.join(mark);
  }
}

/** encodeSpec encodes a spec object by its schema; properties outside the schema are not encoded. */
export function encodeSpec(value: unknown, schema: ProtoSchema): Uint8Array {
  const w = new ProtoWriter();
  writeMessage(w, value, compile(schema), 'spec');
  return w.finish();
}
