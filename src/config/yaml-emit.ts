// A YAML emitter that writes what Go's yaml.v3 writes with 4-space indentation (talosctl's output),
// so a file talosctl generated re-encodes byte for byte.

/** Octal marks a file mode, written as `0o644` like upstream's FileMode. */
export class Octal {
  constructor(readonly value: number) {}
}

/** emitDocument writes one top-level mapping. */
export function emitDocument(value: Record<string, unknown>): string {
  return isEmpty(value) ? '{}\n' : `${mapping(value, 0).join('\n')}\n`;
}

// yaml.v3 aligns nested blocks to the next multiple of the indent; inside a "- " item it adds 2.
const next = (col: number) => 4 * Math.floor((col + 4) / 4);
const sp = (n: number) => ' '.repeat(n);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Octal);
const isEmpty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0);

function mapping(m: Obj, col: number): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(m)) {
    const key = `${sp(col)}${scalar(k)}:`;
    out.push(...valueLines(key, v, col));
  }
  return out;
}

function sequence(items: unknown[], col: number): string[] {
  const out: string[] = [];
  for (const item of items) {
    if ((isObj(item) || Array.isArray(item)) && !isEmpty(item)) {
      const inner = isObj(item) ? mapping(item, col + 2) : sequence(item, col + 2);
      inner[0] = `${sp(col)}- ${inner[0]!.slice(col + 2)}`;
      out.push(...inner);
    } else out.push(...valueLines(`${sp(col)}-`, item, col));
  }
  return out;
}

/** valueLines writes `head value`, or `head` followed by a nested block. */
function valueLines(head: string, v: unknown, col: number): string[] {
  if (isObj(v) && !isEmpty(v)) return [head, ...mapping(v, next(col))];
  if (Array.isArray(v) && v.length > 0) return [head, ...sequence(v, next(col))];
  if (typeof v === 'string' && literalAllowed(v)) {
    const body = v.replace(/\n+$/, '');
    const trail = v.length - body.length;
    const chomp = trail === 0 ? '-' : trail === 1 ? '' : '+';
    const lines = (trail > 1 ? v.slice(0, -1) : body).split('\n');
    return [`${head} |${chomp}`, ...lines.map((l) => (l === '' ? '' : `${sp(next(col))}${l}`))];
  }
  return [`${head} ${scalar(v)}`];
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Octal) return `0o${v.value.toString(8)}`;
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  if (typeof v !== 'string') return String(v);
  if (resolvesToNonString(v) || !printable(v)) return JSON.stringify(v);
  if (plainAllowed(v)) return v;
  return `'${v.replace(/'/g, "''")}'`;
}

// control characters (tab and line breaks included) force double quotes, as in libyaml
const isControl = (code: number) => code < 0x20 || code === 0x7f;
const printable = (s: string) => ![...s].some((c) => isControl(c.charCodeAt(0)));

// Strings that a YAML 1.1 or 1.2 reader would take for another type are double-quoted, as yaml.v3 does.
const nonString = [
  /^(~|null|Null|NULL)?$/,
  /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^[-+]?(0|[1-9][0-9_]*)$/,
  /^[-+]?0[0-7_]+$/,
  /^[-+]?0x[0-9a-fA-F_]+$/,
  /^[-+]?0o[0-7_]+$/,
  /^[-+]?0b[01_]+$/,
  /^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(inf|Inf|INF)$/,
  /^\.(nan|NaN|NAN)$/,
  /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/,
  /^\d{4}-\d{1,2}-\d{1,2}([Tt ].*)?$/,
];
const resolvesToNonString = (s: string) => nonString.some((re) => re.test(s));

function plainAllowed(s: string): boolean {
  if (/^\s|\s$/.test(s) || s.startsWith('---') || s.startsWith('...')) return false;
  const c = s[0]!;
  if (',[]{}#&*!|>\'"%@`'.includes(c)) return false;
  if ('-?:'.includes(c) && (s.length === 1 || s[1] === ' ')) return false;
  return !s.includes(': ') && !s.endsWith(':') && !s.includes(' #');
}

// Multi-line strings use a literal block unless a line would not survive one.
function literalAllowed(s: string): boolean {
  if (!s.includes('\n') || /^[ \n]/.test(s)) return false;
  const body = s.replace(/\n+$/, '');
  return (
    !/[ \t]\n/.test(body) && ![...body].some((c) => c !== '\n' && c !== '\t' && isControl(c.charCodeAt(0)))
  );
}

/** goKeyLess orders map keys as yaml.v3 does: letters before digits, digit runs compared as numbers. */
export function goKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  const isDigit = (c: string) => c >= '0' && c <= '9';
  const isLetter = (c: string) => /\p{L}/u.test(c);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const x = ar[i]!;
    const y = br[i]!;
    if (x === y) {
      digits = isDigit(x);
      continue;
    }
    const xl = isLetter(x);
    const yl = isLetter(y);
    if (xl && yl) return x < y;
    if (xl || yl) return digits ? xl : yl;
    let an = 0;
    let bn = 0;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return x < y;
  }
  return ar.length < br.length;
}

export const sortKeys = (keys: string[]): string[] =>
  [...keys].sort((a, b) => (goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0));
