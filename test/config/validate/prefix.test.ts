// Prefix overlap as the subnet and link rules use it: host bits masked, IPv4 and IPv6 apart.
import { describe, expect, it } from 'vitest';
import { overlaps, parsePrefix } from '../../../src/config/validate/prefix.js';

const p = (s: string) => parsePrefix(s)!;

describe('overlaps', () => {
  it.each([
    ['10.0.0.0/8', '10.96.0.0/12', true],
    ['10.96.0.0/12', '10.0.0.0/8', true],
    ['10.244.1.0/8', '10.96.0.0/12', true],
    ['10.244.0.0/16', '10.245.0.0/16', false],
    ['fd00:10:244::/56', 'fd00:10:244:ff::/64', true],
    ['fd00:10:244::/56', 'fd00:10:245::/64', false],
    ['10.244.0.0/16', '::ffff:10.244.0.0/112', false],
    ['0.0.0.0/0', '::/0', false],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(overlaps(p(a), p(b))).toBe(expected);
  });

  it('reads a bare address as the whole address', () => {
    expect(parsePrefix('10.0.0.1')).toEqual({ ip: '10.0.0.1', bits: 32, v6: false });
    expect(parsePrefix('fd00::1')).toEqual({ ip: 'fd00::1', bits: 128, v6: true });
    expect(parsePrefix('10.0.0.0/33')).toBeUndefined();
  });
});
