import { describe, expect, it } from 'vitest';
import {
  compareAddr,
  comparePrefixesV1,
  comparePrefixesV2,
  filterPrefixes,
  insertSorted,
} from '../../../../controllers/network/internal/address-sort.js';
import {
  nodeAddressViews,
  type ObservedAddress,
} from '../../../../controllers/network/internal/node-addresses.js';

const addr = (prefix: string, linkName: string, linkIndex: number, extra: Partial<ObservedAddress> = {}) => ({
  prefix,
  linkName,
  linkIndex,
  scope: 0,
  kernel: true,
  ...extra,
});

describe('address order', () => {
  it('compares addresses as netip does: IPv4 first, then bytes', () => {
    expect(compareAddr('10.0.0.2', '10.0.0.10')).toBe(-1);
    expect(compareAddr('192.168.0.1', '::1')).toBe(-1);
    expect(compareAddr('fd00::1', 'fd00::1')).toBe(0);
  });

  it('v1 sorts by address then length; v2 by family, then the more specific prefix first', () => {
    const list = ['10.0.0.5/8', '10.0.0.5/24', '192.168.1.2/24', 'fd00::1/64', '10.3.0.1/16'];
    expect([...list].sort(comparePrefixesV1)).toEqual([
      '10.0.0.5/8',
      '10.0.0.5/24',
      '10.3.0.1/16',
      '192.168.1.2/24',
      'fd00::1/64',
    ]);
    // a prefix containing another's address sorts after it
    expect([...list].sort(comparePrefixesV2)).toEqual([
      '10.0.0.5/24',
      '10.3.0.1/16',
      '10.0.0.5/8',
      '192.168.1.2/24',
      'fd00::1/64',
    ]);
  });

  it('filters by include and exclude subnets, and inserts without duplicates', () => {
    const all = ['10.0.0.2/24', '10.244.1.0/32', '10.96.0.10/32', 'fd00::2/64'];
    expect(filterPrefixes(all, [], ['10.244.0.0/16', '10.96.0.0/12'])).toEqual(['10.0.0.2/24', 'fd00::2/64']);
    expect(filterPrefixes(all, ['10.244.0.0/16'], [])).toEqual(['10.244.1.0/32']);
    expect(insertSorted(['10.0.0.2/24'], ['10.0.0.1/24', '10.0.0.2/24'], comparePrefixesV1)).toEqual([
      '10.0.0.1/24',
      '10.0.0.2/24',
    ]);
  });
});

describe('nodeAddressViews', () => {
  const base = {
    linksUp: new Set([2]),
    filters: [{ id: 'no-k8s', include: [], exclude: ['10.244.0.0/16'] }],
    compare: comparePrefixesV1,
    previous: new Map<string, string[]>(),
  };

  it('leaves out loopback, link-local, multicast and link-scope addresses; current follows links that are up', () => {
    const views = nodeAddressViews({
      ...base,
      addresses: [
        addr('127.0.0.1/8', 'lo', 1, { scope: 254 }),
        addr('10.0.2.15/24', 'eth0', 2),
        addr('fe80::1/64', 'eth0', 2, { scope: 253 }),
        addr('169.254.3.3/16', 'eth0', 2),
        addr('10.244.0.1/24', 'flannel.1', 3),
        addr('203.0.113.9/32', 'external', 0, { kernel: false }),
        addr('fdae:41e4:649b:9303::1/64', 'siderolink', 2),
      ],
    });
    expect(views.get('default')).toEqual(['10.0.2.15/24']);
    expect(views.get('current')).toEqual(['10.0.2.15/24', '203.0.113.9/32', 'fdae:41e4:649b:9303::1/64']);
    expect(views.get('routed')).toEqual(['10.0.2.15/24']);
    expect(views.get('accumulative')).toEqual([
      '10.0.2.15/24',
      '10.244.0.1/24',
      '203.0.113.9/32',
      'fdae:41e4:649b:9303::1/64',
    ]);
    expect(views.get('accumulative-no-k8s')).toEqual([
      '10.0.2.15/24',
      '203.0.113.9/32',
      'fdae:41e4:649b:9303::1/64',
    ]);
  });

  it('keeps the default while it is current, and accumulates every address ever seen', () => {
    const previous = new Map([
      ['default', ['10.0.2.20/24']],
      ['accumulative', ['10.0.2.99/24']],
    ]);
    const views = nodeAddressViews({
      ...base,
      previous,
      addresses: [addr('10.0.2.15/24', 'eth0', 2), addr('10.0.2.20/24', 'eth0', 2)],
    });
    expect(views.get('default')).toEqual(['10.0.2.20/24']);
    expect(views.get('accumulative')).toEqual(['10.0.2.15/24', '10.0.2.20/24', '10.0.2.99/24']);
    const gone = nodeAddressViews({ ...base, previous, addresses: [addr('10.0.2.15/24', 'eth0', 2)] });
    expect(gone.get('default')).toEqual(['10.0.2.15/24']);
  });
});
