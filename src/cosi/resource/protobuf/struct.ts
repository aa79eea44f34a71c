// google.protobuf.Struct, Value and ListValue: a JSON value (a Go map[string]any, as protoenc marshals one
// through structpb) to and from the wire. Value is a oneof, so whichever kind is set is written, even a
// zero; keys go in sorted order, as deterministic marshalling writes a map's.
import { compareUTF8 } from '../output/goyaml/sort-keys.js';
import { ProtoError } from './errors.js';
import { setKey } from './schema.js';
import type { ProtoReader } from './wire-reader.js';
import { WireType } from './wire-type.js';
import type { ProtoWriter } from './wire-writer.js';

// field numbers of struct.proto
const STRUCT_FIELDS = 1;
const VALUE_NULL = 1;
const VALUE_NUMBER = 2;
const VALUE_STRING = 3;
const VALUE_BOOL = 4;
const VALUE_STRUCT = 5;
const VALUE_LIST = 6;
const LIST_VALUES = 1;

export type JSONValue = null | number | string | boolean | JSONValue[] | { [k: string]: JSONValue };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

const notJSON = (path: string, v: unknown) =>
  new ProtoError(
    'invalid-value',
    `${path}: expected a JSON value (null, number, string, boolean, array or object), got ${
      v === undefined ? 'undefined' : typeof v
    }`,
  );

/** writeStruct writes the fields of a Struct message (the caller frames it). */
export function writeStruct(w: ProtoWriter, v: unknown, path: string): void {
  if (!isPlainObject(v)) throw notJSON(path, v);
  for (const k of Object.keys(v).sort(compareUTF8)) {
    w.tag(STRUCT_FIELDS, WireType.Bytes);
    const entry = w.fork();
    w.tag(1, WireType.Bytes).string(k);
    w.tag(2, WireType.Bytes);
    const value = w.fork();
    writeValue(w, v[k], `${path}.${k}`);
    w.join(value);
    w.join(entry);
  }
}

function writeValue(w: ProtoWriter, v: unknown, path: string): void {
  if (v === null) {
    w.tag(VALUE_NULL, WireType.Varint).int32(0);
    return;
  }
  switch (typeof v) {
    case 'number':
      // structpb refuses neither, but no JSON reader could take them back
      if (!Number.isFinite(v)) throw new ProtoError('invalid-value', `${path}: ${v} is not a JSON number`);
      w.tag(VALUE_NUMBER, WireType.Fixed64).double(v);
      return;
    case 'string':
      w.tag(VALUE_STRING, WireType.Bytes).string(v);
      return;
    case 'boolean':
      w.tag(VALUE_BOOL, WireType.Varint).bool(v);
      return;
  }
  if (Array.isArray(v)) {
    w.tag(VALUE_LIST, WireType.Bytes);
    const list = w.fork();
    v.forEach((item, i) => {
      w.tag(LIST_VALUES, WireType.Bytes);
      const value = w.fork();
      writeValue(w, item, `${path}[${i}]`);
      w.join(value);
    });
    w.join(list);
    return;
  }
  if (!isPlainObject(v)) throw notJSON(path, v);
  w.tag(VALUE_STRUCT, WireType.Bytes);
  const inner = w.fork();
  writeStruct(w, v, path);
  w.join(inner);
}

/** readStruct reads a Struct message into `out` (repeated occurrences merge, as proto merges a map). */
export function readStruct(r: ProtoReader, out: Record<string, JSONValue> = {}): Record<string, JSONValue> {
  while (!r.done()) {
    const t = r.tag();
    if (t >>> 3 !== STRUCT_FIELDS || (t & 7) !== WireType.Bytes) {
      r.skip(t & 7, t >>> 3);
      continue;
    }
    const entry = r.sub();
    let key = '';
    let value: JSONValue = null;
    while (!entry.done()) {
      const et = entry.tag();
      if (et >>> 3 === 1 && (et & 7) === WireType.Bytes) key = entry.string();
      else if (et >>> 3 === 2 && (et & 7) === WireType.Bytes) value = readValue(entry.sub());
      else entry.skip(et & 7, et >>> 3);
    }
    setKey(out, key, value);
  }
  return out;
}

/** readValue: the last kind on the wire wins, as for any oneof; no kind at all is null, as structpb's AsInterface. */
function readValue(r: ProtoReader): JSONValue {
  let v: JSONValue = null;
  while (!r.done()) {
    const t = r.tag();
    const no = t >>> 3;
    const wt = t & 7;
    if (no === VALUE_NULL && wt === WireType.Varint) {
      r.int32();
      v = null;
    } else if (no === VALUE_NUMBER && wt === WireType.Fixed64) v = r.double();
    else if (no === VALUE_STRING && wt === WireType.Bytes) v = r.string();
    else if (no === VALUE_BOOL && wt === WireType.Varint) v = r.bool();
    else if (no === VALUE_STRUCT && wt === WireType.Bytes) v = readStruct(r.sub());
    else if (no === VALUE_LIST && wt === WireType.Bytes) v = readList(r.sub());
    else r.skip(wt, no);
  }
  return v;
}

function readList(r: ProtoReader): JSONValue[] {
  const out: JSONValue[] = [];
  while (!r.done()) {
    const t = r.tag();
    if (t >>> 3 === LIST_VALUES && (t & 7) === WireType.Bytes) out.push(readValue(r.sub()));
    else r.skip(t & 7, t >>> 3);
  }
  return out;
}
