// Orderings the checks share: by node name as Go's cmp.Compare of strings, and addresses as netip.Addr.Compare.
import { isIPv4 } from 'node:net';

export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const byNode = (a: { readonly node: string }, b: { readonly node: string }): number =>
  compareStrings(a.node, b.node);

/** addrKey spells an address so that strings compare as netip.Addr does: IPv4 before IPv6, then by value. */
function addrKey(ip: string): string {
  if (isIPv4(ip))
    return `4:${ip
      .split('.')
      .map((o) => Number(o).toString(16).padStart(2, '0'))
      .join('')}`;
  const [head = '', tail = ''] = ip.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  const h = parts(head);
  const t = parts(tail);
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `6:${groups.map((g) => g.padStart(4, '0')).join('')}`;
}

export const compareAddrs = (a: string, b: string): number => compareStrings(addrKey(a), addrKey(b));
