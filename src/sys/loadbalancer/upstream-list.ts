// The load balancer's policy, as pure data and functions (go-loadbalancer's upstream.List): each upstream
// has a score, moved by health checks and failed dials, and a tier, the latency class of its last good
// check. A pick goes round-robin over the usable upstreams (score ≥ 0) of the lowest tier that has one.

export interface UpstreamPolicy {
  readonly lowScore: number;
  readonly highScore: number;
  readonly failDelta: number;
  readonly successDelta: number;
  readonly initialScore: number;
  readonly minTier: number;
  readonly maxTier: number;
  readonly initialTier: number;
}

/**
 * Upper bounds of go-loadbalancer's TCP tiers by connect latency, in ms: tier i holds a check that took at
 * least TIER_MINS[i]. Loopback is tier 0 or 1, a LAN 1–3, a far region 4–5.
 */
export const TIER_MINS = [0, 0.1, 1, 10, 100, 1000] as const;

/** go-loadbalancer's defaults for a TCP route: scores −3…3 moved by ±1, a new upstream at 1 in tier 1. */
export const TCP_UPSTREAM_POLICY: UpstreamPolicy = {
  lowScore: -3,
  highScore: 3,
  failDelta: -1,
  successDelta: 1,
  initialScore: 1,
  minTier: 0,
  maxTier: TIER_MINS.length - 1,
  initialTier: 1,
};

export interface Upstream {
  /** host:port, the upstream's identity */
  readonly address: string;
  readonly score: number;
  readonly tier: number;
}

export interface UpstreamList {
  readonly upstreams: readonly Upstream[];
  /** index of the last pick, −1 before the first */
  readonly current: number;
}

export const emptyUpstreamList = (): UpstreamList => ({ upstreams: [], current: -1 });

/** tierOfLatency classes a successful check by how long it took. */
export function tierOfLatency(ms: number): number {
  for (let i = TIER_MINS.length - 1; i > 0; i--) if (ms >= TIER_MINS[i]!) return i;
  return 0;
}

/** reconcile keeps the upstreams still listed (score and tier included) and adds new ones at the start values. */
export function reconcile(l: UpstreamList, addresses: readonly string[], p: UpstreamPolicy): UpstreamList {
  const kept = l.upstreams.filter((u) => addresses.includes(u.address));
  const added = [...new Set(addresses)]
    .filter((a) => !kept.some((u) => u.address === a))
    .map((address) => ({ address, score: p.initialScore, tier: p.initialTier }));
  return { upstreams: [...kept, ...added], current: l.current };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** scored moves one upstream's score (within the bounds) and, when given, sets its tier (within range). */
function scored(
  l: UpstreamList,
  address: string,
  delta: number,
  tier: number | undefined,
  p: UpstreamPolicy,
) {
  return {
    current: l.current,
    upstreams: l.upstreams.map((u) =>
      u.address !== address
        ? u
        : {
            address,
            score: clamp(u.score + delta, p.lowScore, p.highScore),
            tier: tier === undefined ? u.tier : clamp(tier, p.minTier, p.maxTier),
          },
    ),
  };
}

/** up records a success: a health check (with the tier its latency gives) or, without a tier, any other. */
export const up = (l: UpstreamList, address: string, p: UpstreamPolicy, tier?: number): UpstreamList =>
  scored(l, address, p.successDelta, tier, p);

/** down records a failure (a failed check or dial); the tier stays that of the last success. */
export const down = (l: UpstreamList, address: string, p: UpstreamPolicy): UpstreamList =>
  scored(l, address, p.failDelta, undefined, p);

/** pick chooses the next usable upstream after the last pick, lowest tier first; none when all are down. */
export function pick(
  l: UpstreamList,
  p: UpstreamPolicy,
): { list: UpstreamList; address: string } | undefined {
  const n = l.upstreams.length;
  for (let tier = p.minTier; tier <= p.maxTier; tier++)
    for (let j = 0; j < n; j++) {
      const i = (l.current + 1 + j) % n;
      const u = l.upstreams[i]!;
      if (u.tier === tier && u.score >= 0) return { list: { ...l, current: i }, address: u.address };
    }
  return undefined;
}

/** healthy: at least one upstream could be picked. */
export const healthy = (l: UpstreamList): boolean => l.upstreams.some((u) => u.score >= 0);
