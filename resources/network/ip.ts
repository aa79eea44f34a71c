// IP addresses as upstream's common.NetIP/NetIPPrefix carry them: 4 or 16 raw bytes.
import { isIPv4, isIPv6 } from 'node:net';

/** ipToBytes packs an IPv4 (4 bytes) or IPv6 (16 bytes) address; anything else is an error. */
export function ipToBytes(ip: string): Uint8Array {
  if (isIPv4(ip)) return Uint8Array.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) throw new TypeError(`${JSON.stringify(ip)} is not an IP address`);
  let text = ip;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = v4[1]!.split('.').map(Number);
    tail.push((b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!);
    text = text.slice(0, -v4[1]!.length);
    if (!text.endsWith('::')) text = text.slice(0, -1); // drop the ':' before the dotted quad
  }
  const [head = '', rest] = text.split('::');
  const groups = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const words = [...h, ...new Array(8 - tail.length - h.length - r.length).fill(0), ...r, ...tail];
  const out = new Uint8Array(16);
  words.slice(0, 8).forEach((w, i) => {
    out[2 * i] = (w >> 8) & 0xff;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** ipFromBytes is the inverse of ipToBytes, IPv6 in its shortest form. */
export function ipFromBytes(b: Uint8Array): string {
  if (b.length === 4) return Array.from(b).join('.');
  if (b.length !== 16) throw new TypeError(`an IP address has 4 or 16 bytes, got ${b.length}`);
  const words = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  // the longest run of two or more zero words becomes "::"
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  return best < 0 ? hex(words) : `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

/** canonicalIP normalizes an address's spelling (IPv6 zero runs, case), so SAN sets compare by value. */
export const canonicalIP = (ip: string): string => ipFromBytes(ipToBytes(ip));

/** prefixAddress is the address part of a CIDR prefix (`10.0.0.5/24` → `10.0.0.5`). */
export const prefixAddress = (prefix: string): string => prefix.split('/')[0]!;
