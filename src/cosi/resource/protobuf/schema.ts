// Compiled ProtoSchemas: fields checked once and ordered by number, plus the zero values of a message.
import type { ProtoField, ProtoScalar, ProtoSchema } from '../proto-schema.js';
import { ProtoError } from './errors.js';
import { WireType } from './wire-type.js';

export type Kind = ProtoField['kind'];

export interface Compiled {
  readonly name: string;
  readonly no: number;
  readonly field: ProtoField;
  readonly kind: Kind;
  readonly repeated: boolean;
  /** repeated numeric scalars travel packed in one length-delimited value */
  readonly packed: boolean;
  /** wire type of one element */
  readonly wt: WireType;
}

export type MapField = Extract<ProtoField, { kind: 'map' }>;

export interface CompiledSchema {
  readonly fields: readonly Compiled[];
  readonly byNo: ReadonlyMap<number, Compiled>;
}

export const WIRE: Readonly<Record<Kind, WireType>> = {
  int32: WireType.Varint,
  int64: WireType.Varint,
  uint32: WireType.Varint,
  uint64: WireType.Varint,
  sint32: WireType.Varint,
  sint64: WireType.Varint,
  bool: WireType.Varint,
  enum: WireType.Varint,
  fixed64: WireType.Fixed64,
  sfixed64: WireType.Fixed64,
  double: WireType.Fixed64,
  fixed32: WireType.Fixed32,
  sfixed32: WireType.Fixed32,
  float: WireType.Fixed32,
  string: WireType.Bytes,
  bytes: WireType.Bytes,
  message: WireType.Bytes,
  timestamp: WireType.Bytes,
  duration: WireType.Bytes,
  struct: WireType.Bytes,
  map: WireType.Bytes,
};

const MAP_KEY_KINDS: ReadonlySet<string> = new Set([
  'string',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
]);

const MAX_FIELD = 2 ** 29 - 1;
const cache = new WeakMap<ProtoSchema, CompiledSchema>();

/** compile validates a schema once and orders its fields by number, as protoc-gen-go writes them. */
export function compile(schema: ProtoSchema): CompiledSchema {
  const hit = cache.get(schema);
  if (hit) return hit;
  const byNo = new Map<number, Compiled>();
  for (const [name, field] of Object.entries(schema)) {
    const { no, kind } = field;
    const where = `schema field ${JSON.stringify(name)}`;
    if (!Number.isInteger(no) || no < 1 || no > MAX_FIELD || (no >= 19000 && no <= 19999))
      throw new ProtoError('invalid-schema', `${where}: field number ${no} is out of range`);
    const prev = byNo.get(no);
    if (prev)
      throw new ProtoError('invalid-schema', `${where}: field number ${no} is already used by ${prev.name}`);
    if (field.kind === 'map' && !MAP_KEY_KINDS.has(field.key))
      throw new ProtoError('invalid-schema', `${where}: ${field.key} cannot be a map key`);
    const repeated = field.kind !== 'map' && field.repeated === true;
    const wt = WIRE[kind];
    byNo.set(no, { name, no, field, kind, repeated, packed: repeated && wt !== WireType.Bytes, wt });
  }
  const compiled = { fields: [...byNo.values()].sort((a, b) => a.no - b.no), byNo };
  cache.set(schema, compiled);
  return compiled;
}

export function scalarZero(kind: ProtoScalar): unknown {
  switch (kind) {
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'bool':
      return false;
    default:
      return 0;
  }
}

function zeroOf(f: Compiled): unknown {
  const field = f.field;
  if (field.kind === 'map') return {};
  if (f.repeated) return [];
  switch (field.kind) {
    case 'message':
      return zeroSpec(field.schema);
    case 'timestamp':
    case 'duration':
      return 0;
    case 'struct':
      // as a nil Go map reads: no keys
      return {};
    default:
      return field.optional ? null : scalarZero(field.kind);
  }
}

/** zeroSpec builds the object an empty message decodes to: every schema field at its zero value. */
export function zeroSpec(schema: ProtoSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of compile(schema).fields) setKey(out, f.name, zeroOf(f));
  return out;
}

/** setKey assigns even the key "__proto__" as an own property. */
export function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
