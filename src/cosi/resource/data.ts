// Deep copy and deep equality for plain spec data (objects, arrays, primitives, bytes, dates, maps).

/** cloneData deep-copies plain data; faster than structuredClone for the small specs that dominate. */
export function cloneData<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneData(v[i]);
    return out as T;
  }
  if (v instanceof Uint8Array) return v.slice() as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, cloneData(x)])) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = cloneData((v as Record<string, unknown>)[k]);
  return out as T;
}

/** equalData compares plain data structurally; key order does not matter. */
export function equalData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) if (!b.has(k) || !equalData(x, b.get(k))) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  if (ka.length !== Object.keys(rb).length) return false;
  for (const k of ka) if (!Object.hasOwn(rb, k) || !equalData(ra[k], rb[k])) return false;
  return true;
}
