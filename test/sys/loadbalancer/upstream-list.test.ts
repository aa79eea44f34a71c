// The balancer's policy as go-loadbalancer's upstream.List: scores, tiers, round-robin within the lowest
// tier, and what a reconcile keeps.
import { describe, expect, it } from 'vitest';
import {
  down,
  emptyUpstreamList,
  healthy,
  TCP_UPSTREAM_POLICY as P,
  pick,
  reconcile,
  tierOfLatency,
  type UpstreamList,
  up,
} from '../../../src/sys/loadbalancer/upstream-list.js';

const listOf = (...addresses: string[]) => reconcile(emptyUpstreamList(), addresses, P);

/** picks takes n picks in a row, returning the addresses */
function picks(l: UpstreamList, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = pick(l, P);
    if (!p) break;
    out.push(p.address);
    l = p.list;
  }
  return out;
}

const times = (n: number, f: (l: UpstreamList) => UpstreamList, l: UpstreamList) => {
  for (let i = 0; i < n; i++) l = f(l);
  return l;
};

describe('tierOfLatency', () => {
  it.each([
    [0, 0],
    [0.05, 0],
    [0.1, 1],
    [0.5, 1],
    [1, 2],
    [9.9, 2],
    [10, 3],
    [150, 4],
    [1000, 5],
    [60_000, 5],
  ])('%d ms → tier %d', (ms, tier) => expect(tierOfLatency(ms)).toBe(tier));
});

describe('upstream list', () => {
  it('starts each upstream usable, at score 1 in tier 1, and picks round-robin', () => {
    const l = listOf('a:1', 'b:1', 'c:1');
    expect(l.upstreams).toEqual([
      { address: 'a:1', score: 1, tier: 1 },
      { address: 'b:1', score: 1, tier: 1 },
      { address: 'c:1', score: 1, tier: 1 },
    ]);
    expect(picks(l, 5)).toEqual(['a:1', 'b:1', 'c:1', 'a:1', 'b:1']);
  });

  it('takes an upstream out after two failures (score below 0), and back after a success', () => {
    let l = listOf('a:1', 'b:1');
    l = down(l, 'a:1', P);
    expect(picks(l, 2)).toEqual(['a:1', 'b:1']); // score 0 is still usable
    l = down(l, 'a:1', P);
    expect(picks(l, 3)).toEqual(['b:1', 'b:1', 'b:1']);
    l = up(l, 'a:1', P);
    expect(picks(l, 2).sort()).toEqual(['a:1', 'b:1']);
  });

  it('bounds scores to −3…3, so a long outage takes at most four good checks to recover', () => {
    let l = times(10, (x) => down(x, 'a:1', P), listOf('a:1'));
    expect(l.upstreams[0]!.score).toBe(-3);
    l = times(3, (x) => up(x, 'a:1', P), l);
    expect(healthy(l)).toBe(true);
    expect(l.upstreams[0]!.score).toBe(0);
    l = times(10, (x) => up(x, 'a:1', P), l);
    expect(l.upstreams[0]!.score).toBe(3);
  });

  it('prefers the lowest tier with a usable upstream, and keeps the tier through failures', () => {
    let l = listOf('far:1', 'near:1', 'mid:1');
    l = up(l, 'far:1', P, tierOfLatency(200));
    l = up(l, 'near:1', P, tierOfLatency(0.05));
    l = up(l, 'mid:1', P, tierOfLatency(5));
    expect(picks(l, 3)).toEqual(['near:1', 'near:1', 'near:1']);
    l = times(4, (x) => down(x, 'near:1', P), l);
    expect(l.upstreams.find((u) => u.address === 'near:1')!.tier).toBe(0);
    expect(picks(l, 2)).toEqual(['mid:1', 'mid:1']);
    l = times(4, (x) => down(x, 'mid:1', P), l);
    expect(picks(l, 1)).toEqual(['far:1']);
  });

  it('is unhealthy with no upstream, or all of them down', () => {
    expect(healthy(emptyUpstreamList())).toBe(false);
    expect(pick(emptyUpstreamList(), P)).toBeUndefined();
    const l = times(2, (x) => down(down(x, 'a:1', P), 'b:1', P), listOf('a:1', 'b:1'));
    expect(healthy(l)).toBe(false);
    expect(pick(l, P)).toBeUndefined();
  });

  it('reconcile keeps the health of upstreams still listed, drops the rest, adds the new ones fresh', () => {
    let l = listOf('a:1', 'b:1');
    l = times(2, (x) => down(x, 'a:1', P), l);
    l = up(l, 'b:1', P, 0);
    l = reconcile(l, ['b:1', 'c:1', 'a:1', 'c:1'], P);
    expect(l.upstreams).toEqual([
      { address: 'a:1', score: -1, tier: 1 },
      { address: 'b:1', score: 2, tier: 0 },
      { address: 'c:1', score: 1, tier: 1 },
    ]);
    expect(reconcile(l, [], P).upstreams).toEqual([]);
  });
});
