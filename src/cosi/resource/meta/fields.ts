// Reading decoded YAML into meta specs the way yaml.v3 fills Go struct fields.

const kindOf = (v: unknown) => (Array.isArray(v) ? 'a list' : 'a mapping');

/** recordOf reads a mapping (null reads as empty, as into a Go struct). */
export function recordOf(v: unknown, field: string): Record<string, unknown> {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${field}: expected a mapping`);
  return v as Record<string, unknown>;
}

/** scalarText reads a scalar as a Go string field gets it: its text, null as empty. */
export function scalarText(v: unknown, field: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') throw new TypeError(`${field}: expected a scalar, got ${kindOf(v)}`);
  return String(v);
}

/** listOf reads a sequence (null reads as empty, as a nil slice). */
export function listOf<T>(v: unknown, field: string, each: (x: unknown, at: string) => T): T[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new TypeError(`${field}: expected a list`);
  return v.map((x, i) => each(x, `${field}[${i}]`));
}
