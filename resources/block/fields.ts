// A block spec described once as a table of fields (property, YAML key, protobuf number and kind), from
// which its zero value, copy, equality, protobuf and YAML codecs are derived. Upstream's YAML keys and
// `omitempty` differ per type (snake_case for Disk, camelCase for Device), so each field names its own.
import type { ProtoScalar, ProtoSchema } from '../../src/cosi/resource/proto-schema.js';
import type { ResourceTypeInput } from '../../src/cosi/resource/typed.js';

/** FieldKind is how a spec property is held: text, a count of bytes or items, a flag or a list of text. */
export type FieldKind = 'string' | 'number' | 'bool' | 'strings';

/** Field describes one spec property as upstream's Go struct tags do. */
export interface Field<S> {
  readonly key: keyof S & string;
  /** the key in upstream's yaml_spec */
  readonly yaml: string;
  readonly kind: FieldKind;
  /** the protobuf field number and scalar kind (api/resource/definitions/block) */
  readonly no: number;
  readonly proto: ProtoScalar;
  /** left out of the YAML when zero (`yaml:",omitempty"`) */
  readonly omitempty?: boolean;
}

type Codec<S> = Pick<
  ResourceTypeInput<S>,
  'empty' | 'copy' | 'equal' | 'proto' | 'fromProto' | 'toYAML' | 'fromYAML'
>;

const zeroOf = (k: FieldKind): unknown =>
  k === 'string' ? '' : k === 'number' ? 0 : k === 'bool' ? false : [];

/** readAs reads a decoded protobuf or parsed YAML value as the field's kind, zero when absent. */
function readAs(k: FieldKind, v: unknown): unknown {
  switch (k) {
    case 'string':
      return v === undefined || v === null ? '' : String(v);
    case 'number':
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
    case 'bool':
      return v === true;
    case 'strings':
      return Array.isArray(v) ? v.map((x) => String(x)) : [];
  }
}

const isZero = (k: FieldKind, v: unknown): boolean =>
  k === 'strings' ? (v as unknown[]).length === 0 : v === zeroOf(k);

const sameValue = (k: FieldKind, a: unknown, b: unknown): boolean => {
  if (k !== 'strings') return a === b;
  const x = a as string[];
  const y = b as string[];
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** specCodec derives a resource type's codec from its field table. */
export function specCodec<S>(fields: readonly Field<S>[]): Codec<S> {
  const build = (read: (f: Field<S>) => unknown): S => {
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f.key] = read(f);
    return out as S;
  };
  const get = (s: S, f: Field<S>): unknown => (s as Record<string, unknown>)[f.key];
  const proto: Record<string, ProtoSchema[string]> = {};
  for (const f of fields)
    proto[f.key] =
      f.kind === 'strings' ? { no: f.no, kind: f.proto, repeated: true } : { no: f.no, kind: f.proto };
  return {
    empty: () => build((f) => zeroOf(f.kind)),
    copy: (s) => build((f) => (f.kind === 'strings' ? [...(get(s, f) as string[])] : get(s, f))),
    equal: (a, b) => fields.every((f) => sameValue(f.kind, get(a, f), get(b, f))),
    proto,
    fromProto: (v) => build((f) => readAs(f.kind, v[f.key])),
    toYAML: (s) => {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        const v = get(s, f);
        if (!(f.omitempty && isZero(f.kind, v))) out[f.yaml] = v;
      }
      return out;
    },
    fromYAML: (v) => {
      const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
      return build((f) => readAs(f.kind, o[f.yaml]));
    },
  };
}
