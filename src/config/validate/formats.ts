// Pure format checks shared by the validation rules: addresses, names, durations, sizes, PEM.
import { isIP } from 'node:net';

export const isIPAddress = (s: string): boolean => isIP(stripZone(s)) !== 0;
const stripZone = (s: string) => s.replace(/%[\w.-]+$/, '');

/** isCIDR accepts `addr/bits` with bits inside the family's range. */
export function isCIDR(s: string): boolean {
  const m = /^(.+)\/(\d{1,3})$/.exec(s);
  if (!m) return false;
  const family = isIP(m[1]!);
  const bits = Number(m[2]);
  return (family === 4 && bits <= 32) || (family === 6 && bits <= 128);
}

/** family returns 4 or 6 for an address or prefix, 0 otherwise. */
export const family = (s: string): number => isIP(stripZone(s.replace(/\/\d+$/, '')));

const label = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
/** isDNSName checks an RFC 1123 name: labels of ≤63 characters, ≤253 in total. */
export const isDNSName = (s: string): boolean =>
  s.length > 0 &&
  s.length <= 253 &&
  s
    .replace(/\.$/, '')
    .split('.')
    .every((l) => label.test(l));

/** hostnameProblem applies upstream's hostname rule: an FQDN of ≤253 whose first label has 1-63 characters. */
export function hostnameProblem(fqdn: string): string | undefined {
  if (fqdn.length > 253) return `fqdn is too long: ${fqdn.length}`;
  const host = fqdn.split('.')[0]!;
  if (host.length === 0 || host.length > 63) return `invalid hostname ${JSON.stringify(host)}`;
  return undefined;
}

/** parseDuration reads a Go duration ("30s", "1h2m", "500ms"); undefined when malformed. */
export function parseDuration(s: string): number | undefined {
  if (s === '0') return 0;
  // µ spelled as an escape: the single executable's bundle stays ASCII (scripts/sea/ascii.ts)
  const re = /(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/y;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1e3, m: 6e4, h: 3.6e6 };
  let ms = 0;
  let at = 0;
  if (s === '') return undefined;
  while (at < s.length) {
    re.lastIndex = at;
    const m = re.exec(s);
    if (!m) return undefined;
    ms += Number(m[1]) * unit[m[2]!]!;
    at = re.lastIndex;
  }
  return ms;
}

/** parseSize reads a human byte size ("10GiB", "100 MB", "1024"); undefined when malformed. */
export function parseSize(s: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]?)(i?)b?\s*$/i.exec(s);
  if (!m) return undefined;
  const pow = ' kmgtpe'.indexOf(m[2]!.toLowerCase() || ' ');
  const base = m[3] ? 1024 : 1000;
  return Number(m[1]) * base ** pow;
}

/** isURL accepts absolute URLs with one of the given schemes and a host. */
export function isURL(s: string, schemes: readonly string[]): boolean {
  try {
    const u = new URL(s);
    return schemes.includes(u.protocol.replace(/:$/, '')) && u.hostname !== '';
  } catch {
    return false;
  }
}

/** pemBlock decodes base64 and returns the PEM label, or undefined when the value is not base64 PEM. */
export function pemLabel(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(b64)) return undefined;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  return /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/.exec(text)?.[1];
}

export const isCertificate = (b64: string): boolean => pemLabel(b64) === 'CERTIFICATE';
export const isPrivateKey = (b64: string): boolean => /PRIVATE KEY$/.test(pemLabel(b64) ?? '');

/** Token shapes: trustd and Kubernetes bootstrap tokens are `[a-z0-9]{6}.[a-z0-9]{16}`. */
export const isToken = (s: string): boolean => /^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(s);

/** isBase64Key32 checks a base64 value of 32 bytes (cluster id/secret, secretbox key). */
export const isBase64Key32 = (s: string): boolean =>
  /^[A-Za-z0-9+/_-]+={0,2}$/.test(s) && Buffer.from(s, 'base64').length === 32;

export const isEnvName = (s: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
export const isSysctlName = (s: string): boolean => /^[a-z0-9_][a-z0-9_./-]*$/i.test(s) && !s.includes('..');

/** endpointProblem mirrors upstream's endpoint URI check: a host is required, IPv6 in brackets, a valid port. */
export function endpointProblem(s: string): string | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(s);
  const authority = (m?.[1] ?? '').replace(/^.*@/, '');
  if ((authority.match(/:/g)?.length ?? 0) > 2 && !(authority.includes('[') && authority.includes(']')))
    return 'IPv6 addresses MUST be enclosed by square brackets';
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(authority);
  const cut = authority.lastIndexOf(':');
  const host = bracketed ? bracketed[1]! : cut < 0 ? authority : authority.slice(0, cut);
  const port = bracketed ? (bracketed[2] ?? '') : cut < 0 ? '' : authority.slice(cut + 1);
  if (host === '') return 'hostname must not be blank';
  if (port === '') return undefined;
  if (!/^\d+$/.test(port)) return 'port number must be numeric';
  const n = Number(port);
  return n < 1 || n > 65535 ? 'port number must be between 1 and 65535' : undefined;
}

/** hasHostPort checks `host:port` (IPv6 hosts in brackets), as upstream's AddressContainsPort. */
export function hasHostPort(s: string): boolean {
  const bracketed = /^\[([^\]]+)\]:(\d*)$/.exec(s);
  if (bracketed) return isIP(bracketed[1]!) === 6;
  const cut = s.lastIndexOf(':');
  return cut >= 0 && !s.slice(0, cut).includes(':') && /^\d*$/.test(s.slice(cut + 1)) && !/[[\]]/.test(s);
}

/** isWireguardKey checks a standard base64 value of exactly 32 bytes. */
export const isWireguardKey = (s: string): boolean =>
  /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 && Buffer.from(s, 'base64').length === 32;
