// IP arithmetic: the nth address of a subnet, as the Service IPs are found.
import { describe, expect, it } from 'vitest';
import { nthIP, parsePrefix } from '../../../../controllers/network/internal/ip.js';

const p = (s: string) => parsePrefix(s)!;

describe('nthIP', () => {
  it('adds to the network address, carrying across bytes, in both families', () => {
    expect(nthIP(p('10.96.0.0/12'), 1)).toBe('10.96.0.1');
    expect(nthIP(p('10.96.3.7/12'), 10)).toBe('10.96.0.10');
    expect(nthIP(p('192.168.0.0/16'), 300)).toBe('192.168.1.44');
    expect(nthIP(p('fd00:10:96::/112'), 10)).toBe('fd00:10:96::a');
    expect(nthIP(p('fd00::ff:ff00/120'), 255)).toBe('fd00::ff:ffff');
  });

  it('is undefined past the end of the subnet', () => {
    expect(nthIP(p('10.0.0.0/29'), 7)).toBe('10.0.0.7');
    expect(nthIP(p('10.0.0.0/29'), 8)).toBeUndefined();
    expect(nthIP(p('10.0.0.1/32'), 1)).toBeUndefined();
  });
});
