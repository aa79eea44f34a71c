// Go's text forms of the scalars yaml.v3 writes specially: time.Duration.

const UNITS: readonly [string, number][] = [
  ['h', 3_600_000],
  ['m', 60_000],
];

/** goDuration is time.Duration.String() for a duration held in milliseconds (`1m30s`, `500ms`, `0s`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) {
    // below a second Go picks the largest unit that keeps an integer part
    const ns = Math.round(rest * 1e6);
    const text = ns >= 1e6 ? `${trim(ns / 1e6)}ms` : ns >= 1e3 ? `${trim(ns / 1e3)}µs` : `${ns}ns`;
    return neg ? `-${text}` : text;
  }
  let out = '';
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0 || out !== '') {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  out += `${trim(rest / 1000)}s`;
  return neg ? `-${out}` : out;
}

const trim = (x: number): string => String(Number(x.toFixed(9)));

/** parseGoDuration reads time.ParseDuration's forms back to milliseconds (`1h2m3.5s`, `250ms`, `0`). */
export function parseGoDuration(s: string): number {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/gy;
  const scale: Record<string, number> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    μs: 1e-3,
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
  };
  let text = s;
  let sign = 1;
  if (text.startsWith('-') || text.startsWith('+')) {
    sign = text.startsWith('-') ? -1 : 1;
    text = text.slice(1);
  }
  let total = 0;
  let pos = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * scale[m[2]!]!;
    pos = re.lastIndex;
  }
  if (text === '' || pos !== text.length) throw new TypeError(`${JSON.stringify(s)} is not a Go duration`);
  return sign * total;
}
