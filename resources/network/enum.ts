// Numeric enums with Go's text forms: the number travels on the wire and in specs, the name in YAML.

/** NamedEnum maps an enum's numbers to upstream's text forms (enumer's -linecomment strings). */
export interface NamedEnum {
  /** the Go type name, used for numbers without a name: `LinkType(9)` */
  readonly type: string;
  readonly names: ReadonlyMap<number, string>;
  /** text is the value's String(); unnamed numbers render as `Type(n)`, as enumer does */
  text(v: number): string;
  /** parse reads a name (case-insensitive, as enumer does) or the `Type(n)` form back; unknown text throws */
  parse(s: string): number;
}

/** defineEnum builds a NamedEnum from number → name pairs. */
export function defineEnum(type: string, entries: Readonly<Record<number, string>>): NamedEnum {
  const names = new Map<number, string>();
  for (const k of Object.keys(entries)) names.set(Number(k), entries[Number(k)]!);
  const byName = new Map<string, number>();
  for (const [v, n] of names) {
    if (!byName.has(n)) byName.set(n, v);
    if (!byName.has(n.toLowerCase())) byName.set(n.toLowerCase(), v);
  }
  const unnamed = new RegExp(`^${type}\\((\\d+)\\)$`);
  return {
    type,
    names,
    text: (v) => names.get(v) ?? `${type}(${v})`,
    parse(s) {
      const v = byName.get(s) ?? byName.get(s.toLowerCase());
      if (v !== undefined) return v;
      const m = unnamed.exec(s);
      if (m) return Number(m[1]);
      throw new TypeError(`${JSON.stringify(s)} does not belong to ${type} values`);
    },
  };
}

/** FlagSet renders a bitmask as upstream's flag sets do: set bits' names in ascending order, comma-joined. */
export interface FlagSet {
  readonly type: string;
  readonly names: ReadonlyMap<number, string>;
  /** text lists the known bits that are set; unknown bits are left out, as upstream does */
  text(v: number): string;
  /** parse reads a comma-joined list back; the empty string is no flags */
  parse(s: string): number;
}

export function defineFlags(type: string, entries: Readonly<Record<number, string>>): FlagSet {
  const bits = defineEnum(type, entries);
  const ordered = [...bits.names].sort((a, b) => a[0] - b[0]);
  return {
    type,
    names: bits.names,
    text(v) {
      let out = '';
      for (const [bit, name] of ordered) {
        if ((v & bit) >>> 0 !== bit) continue;
        out = out === '' ? name : `${out},${name}`;
      }
      return out;
    },
    parse(s) {
      if (s === '') return 0;
      let v = 0;
      for (const p of s.split(',')) v = (v | bits.parse(p)) >>> 0;
      return v;
    },
  };
}

/** enumOf reads a YAML scalar (text form, or a bare number) back to its number. */
export function enumOf(e: NamedEnum | FlagSet, v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return e.parse(v);
  if (v === undefined || v === null) return 0;
  throw new TypeError(`${e.type}: expected text, got ${typeof v}`);
}
