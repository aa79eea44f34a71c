// Go's RFC 3339 time layouts: over milliseconds since the epoch (in UTC), and for YAML timestamps.
import { isGoTimestamp, TIMESTAMP } from './resolve.js';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Go appends years with at least four digits and a leading minus before zero. */
const year = (y: number) => (y < 0 ? `-${pad(-y, 4)}` : pad(y, 4));

function parts(ms: number) {
  const d = new Date(Math.floor(ms));
  return {
    date: `${year(d.getUTCFullYear())}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`,
    time: `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`,
    millis: d.getUTCMilliseconds(),
  };
}

/** formatRFC3339 is Go's time.RFC3339 layout in UTC: second precision and a Z. */
export function formatRFC3339(ms: number): string {
  const p = parts(ms);
  return `${p.date}T${p.time}Z`;
}

/** formatRFC3339Nano is Go's time.RFC3339Nano in UTC: the fraction loses its trailing zeros, or goes if zero. */
export function formatRFC3339Nano(ms: number): string {
  const p = parts(ms);
  const frac = p.millis === 0 ? '' : `.${pad(p.millis, 3).replace(/0+$/, '')}`;
  return `${p.date}T${p.time}${frac}Z`;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** parseRFC3339 reads what Go's time.Parse(time.RFC3339, s) accepts; undefined if it would fail. */
export function parseRFC3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const n = (i: number) => Number(m[i]);
  const [y, mo, d, h, mi, se] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return undefined;
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  dt.setUTCHours(h, mi, se, 0);
  // 31 April would roll into May; Go rejects it
  if (dt.getUTCDate() !== d) return undefined;
  const utc = dt.getTime();
  const frac = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const offset = m[8] !== undefined ? 0 : (m[9] === '-' ? -1 : 1) * (n(10) * 60 + n(11)) * 60_000;
  return utc + frac - offset;
}

/**
 * goTimeText is how a YAML timestamp yaml.v3 decoded into a time.Time prints in JSON (RFC 3339
 * with nanoseconds, trailing zeros dropped, the offset kept, Z for zero); undefined if s is none.
 */
export function goTimeText(s: string): string | undefined {
  const m = TIMESTAMP.exec(s);
  if (!m || !isGoTimestamp(s)) return undefined;
  const two = (x: string | undefined) => (x ?? '0').padStart(2, '0');
  const date = `${m[1]}-${two(m[2])}-${two(m[3])}`;
  const tee = m[4] !== undefined;
  if (!tee && m[11] === undefined) return `${date}T00:00:00Z`;
  const [h, mi, se, frac] = tee ? [m[4], m[5], m[6], m[7]] : [m[11], m[12], m[13], m[14]];
  // Go keeps nanoseconds: nine digits at most
  const f = (frac ?? '').slice(0, 9).replace(/0+$/, '');
  const offset =
    tee && m[8] !== undefined && (m[9] !== '00' || m[10] !== '00') ? `${m[8]}${m[9]}:${m[10]}` : 'Z';
  return `${date}T${two(h)}:${two(mi)}:${two(se)}${f ? `.${f}` : ''}${offset}`;
}
