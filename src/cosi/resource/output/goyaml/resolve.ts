// What Go's yaml.v3 reads an unquoted scalar as: null, bool, int, float, timestamp or string.
//
// Quoting on output and re-typing on input both hinge on this, so it follows yaml.v3's resolver:
// a first-character hint, a fixed table (true/True/TRUE, null/~, .inf, …), Go's base-0 integer
// syntax after dropping underscores ("0x1F", "0o17", "017", "+5", "1_000"), then floats.

export type GoTag = '!!null' | '!!bool' | '!!int' | '!!float' | '!!timestamp' | '!!str';

/** Resolved value: ints are bigint (Go int/int64/uint64), floats are numbers, timestamps keep their text. */
export type GoScalar = null | boolean | bigint | number | string;

export interface Resolved {
  readonly tag: GoTag;
  readonly value: GoScalar;
}

const TABLE = new Map<string, Resolved>();
for (const s of ['true', 'True', 'TRUE']) TABLE.set(s, { tag: '!!bool', value: true });
for (const s of ['false', 'False', 'FALSE']) TABLE.set(s, { tag: '!!bool', value: false });
for (const s of ['', '~', 'null', 'Null', 'NULL']) TABLE.set(s, { tag: '!!null', value: null });
for (const s of ['.nan', '.NaN', '.NAN']) TABLE.set(s, { tag: '!!float', value: Number.NaN });
for (const s of ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'])
  TABLE.set(s, { tag: '!!float', value: Number.POSITIVE_INFINITY });
for (const s of ['-.inf', '-.Inf', '-.INF'])
  TABLE.set(s, { tag: '!!float', value: Number.NEGATIVE_INFINITY });

/** hint classifies the first character: only these can start a non-string. */
function hint(c: string): 'D' | 'S' | 'M' | '.' | undefined {
  if (c >= '0' && c <= '9') return 'D';
  if (c === '+' || c === '-') return 'S';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
/** Go's strconv base-0 integer syntax (hex, 0o/0b, leading-zero octal, decimal) */
const GO_INT = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;

/** parseGoInt parses as ParseInt(s, 0, 64), then ParseUint(s, 0, 64) for values beyond int64. */
function parseGoInt(s: string): bigint | undefined {
  const m = GO_INT.exec(s);
  if (!m) return undefined;
  const [, sign, hex, oct, bin, zoct, dec] = m;
  const digits =
    hex !== undefined
      ? `0x${hex}`
      : oct !== undefined
        ? `0o${oct}`
        : bin !== undefined
          ? `0b${bin}`
          : zoct !== undefined
            ? `0o${zoct || '0'}`
            : dec!;
  const magnitude = BigInt(digits);
  const v = sign === '-' ? -magnitude : magnitude;
  if (v >= INT64_MIN && v <= INT64_MAX) return v;
  // ParseUint takes no sign at all
  if (sign === '' && v <= UINT64_MAX) return v;
  return undefined;
}

/** finite drops floats that overflow: Go's ParseFloat reports ±Inf with a range error, so they stay strings. */
const finite = (s: string): number | undefined => {
  const f = Number(s);
  return Number.isFinite(f) ? f : undefined;
};

/** resolvePlain resolves an untagged plain scalar as yaml.v3 does. */
export function resolvePlain(s: string): Resolved {
  const h = s === '' ? 'N' : hint(s[0]!);
  if (h === undefined) return { tag: '!!str', value: s };
  const fixed = TABLE.get(s);
  if (fixed) return fixed;
  if (h === '.') {
    const f = DOT_FLOAT.test(s) ? finite(s) : undefined;
    if (f !== undefined) return { tag: '!!float', value: f };
  } else if (h === 'D' || h === 'S') {
    if (isGoTimestamp(s)) return { tag: '!!timestamp', value: s };
    const plain = s.replaceAll('_', '');
    const i = parseGoInt(plain);
    if (i !== undefined) return { tag: '!!int', value: i };
    if (YAML_FLOAT.test(plain)) {
      const f = finite(plain);
      if (f !== undefined) return { tag: '!!float', value: f };
    }
  }
  return { tag: '!!str', value: s };
}

const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** isBase60Float: YAML 1.1 sexagesimal floats ("1:20"); yaml.v3 no longer reads them but still quotes them. */
export const isBase60Float = (s: string): boolean =>
  /^[-+0-9]/.test(s) && s.includes(':') && BASE60_FLOAT.test(s);

const OLD_BOOLS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
]);

/** isOldBool: YAML 1.1 booleans ("yes", "off"); quoted on output so YAML 1.1 readers keep them strings. */
export const isOldBool = (s: string): boolean => OLD_BOOLS.has(s);

/** needsQuotes is yaml.v3's rule for a Go string: quote it when it would not read back as that string. */
export const needsQuotes = (s: string): boolean =>
  resolvePlain(s).tag !== '!!str' || isBase60Float(s) || isOldBool(s);

// The timestamp layouts yaml.v3 tries, in Go's time.Parse terms:
// "2006-1-2T15:4:5.999999999Z07:00" (also with a lowercase t), "2006-1-2 15:4:5.999999999", "2006-1-2".
/** TIMESTAMP captures year, month, day, then either T-time (hour, min, sec, fraction, Z or offset sign, hh, mm) or space-time. */
export const TIMESTAMP =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))| (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,](\d+))?)?$/;

const daysIn = (month: number, year: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** isGoTimestamp says whether yaml.v3 would read s as a !!timestamp (Go's range checks included). */
export function isGoTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const num = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const year = num(1);
  const month = num(2);
  const day = num(3);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return false;
  const [h, mi, se] = m[4] !== undefined ? [num(4), num(5), num(6)] : [num(11), num(12), num(13)];
  if (h > 23 || mi > 59 || se > 59) return false;
  return num(9) <= 24 && num(10) <= 60;
}
