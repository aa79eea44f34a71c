// How an etcd member starts, as upstream decides it before each start: a data directory already holding
// a member restarts it; an empty one bootstraps a new cluster when the Bootstrap call asked for it, else
// joins the cluster the control-plane endpoint leads to, as a learner. Pure.
import type { EtcdMember } from '../../../etcd/index.js';

export type StartMode =
  | { readonly kind: 'restart' }
  | { readonly kind: 'bootstrap'; readonly recover: boolean }
  | { readonly kind: 'join'; readonly host: string }
  /** no bootstrap asked and nowhere to join: wait until one of them changes (which restarts etcd) */
  | { readonly kind: 'wait' };

export function startMode(dataDirEmpty: boolean, options: Readonly<Record<string, string>>): StartMode {
  if (!dataDirEmpty) return { kind: 'restart' };
  if (options.bootstrap === 'true') return { kind: 'bootstrap', recover: options.recover === 'true' };
  if (options.joinHost) return { kind: 'join', host: options.joinHost };
  return { kind: 'wait' };
}

/** the arguments each mode adds to the service's fixed ones */
export function startArgs(
  mode: StartMode,
  name: string,
  peerURLs: string,
  initialCluster?: string,
): string[] {
  switch (mode.kind) {
    case 'bootstrap':
      return [
        '--initial-cluster-state=new',
        `--initial-cluster=${peerURLs
          .split(',')
          .map((u) => `${name}=${u}`)
          .join(',')}`,
      ];
    case 'join':
      return ['--initial-cluster-state=existing', `--initial-cluster=${initialCluster ?? ''}`];
    default:
      return ['--initial-cluster-state=existing'];
  }
}

/**
 * initialClusterOf lists the members a joining one starts with: every started member by its name, and
 * the new one (not started yet, so nameless) by its own name; other unstarted members are left out.
 */
export function initialClusterOf(members: readonly EtcdMember[], selfId: string, selfName: string): string {
  return members
    .filter((m) => m.id === selfId || m.name !== '')
    .flatMap((m) => m.peerURLs.map((u) => `${m.id === selfId ? selfName : m.name}=${u}`))
    .join(',');
}

/** What a join does with the member list it found. */
export type JoinPlan =
  /** a learner with our peer URLs was added before and never started: use it */
  | { readonly kind: 'reuse'; readonly id: string; readonly remove: readonly string[] }
  | { readonly kind: 'add'; readonly remove: readonly string[] }
  /** a voting member already has our peer URLs: joining would break the cluster */
  | { readonly kind: 'refuse'; readonly reason: string };

/** joinPlan: stale members with our name go first (this node lost its data), as upstream. */
export function joinPlan(
  members: readonly EtcdMember[],
  name: string,
  peerURLs: readonly string[],
): JoinPlan {
  const same = (m: EtcdMember) => m.peerURLs.length > 0 && m.peerURLs.every((u) => peerURLs.includes(u));
  const holder = members.find(same);
  const stale = members.filter((m) => m.name === name && m !== holder).map((m) => m.id);
  if (holder && holder.name === '' && holder.isLearner)
    return { kind: 'reuse', id: holder.id, remove: stale };
  if (holder && holder.name === name) return { kind: 'add', remove: [...stale, holder.id] };
  if (holder)
    return {
      kind: 'refuse',
      reason: `member ${holder.name || holder.id} already uses peer URLs ${holder.peerURLs.join(', ')}`,
    };
  return { kind: 'add', remove: stale };
}
