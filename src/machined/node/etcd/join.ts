// Joining an etcd cluster as a learner, as upstream's buildInitialCluster does: ask the cluster the
// control-plane endpoint leads to for its members, clear out a stale member of this name, add this one as
// a learner (or take up the one added before), and start with the members it names. Retried every 3 s
// (with up to 1 s of jitter) until it works or the start is cancelled; every 30 s it says how to bootstrap.
import { setTimeout as delay } from 'node:timers/promises';
import { EtcdClient, type EtcdMember, type EtcdTLS } from '../../../etcd/index.js';
import { initialClusterOf, joinPlan } from './start-mode.js';

export interface JoinOptions {
  /** client URLs of the cluster to join */
  readonly endpoints: readonly string[];
  readonly tls: EtcdTLS;
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  readonly retryMs?: number;
}

export interface Joined {
  readonly id: string;
  readonly initialCluster: string;
  /** the voting members' client URLs, where the promotion is asked for */
  readonly voters: readonly string[];
}

export async function joinCluster(o: JoinOptions): Promise<Joined> {
  const retryMs = o.retryMs ?? 3_000;
  let lastHint = 0;
  for (;;) {
    o.signal.throwIfAborted();
    const client = new EtcdClient({ endpoints: o.endpoints, tls: o.tls, timeoutMs: 30_000 });
    try {
      return await joinOnce(client, o);
    } catch (e) {
      if (o.signal.aborted) throw e;
      if (Date.now() - lastHint >= 30_000) {
        lastHint = Date.now();
        o.log(
          `etcd: cannot join the cluster at ${o.endpoints.join(', ')} yet (${(e as Error).message}); if this node is the first in the cluster, run \`talosctl bootstrap\` against it`,
        );
      }
    } finally {
      client.close();
    }
    await delay(retryMs + Math.random() * 1_000, undefined, { signal: o.signal });
  }
}

async function joinOnce(client: EtcdClient, o: JoinOptions): Promise<Joined> {
  const members = await client.memberList();
  const plan = joinPlan(members, o.name, o.peerURLs);
  if (plan.kind === 'refuse') throw new Error(plan.reason);
  for (const id of plan.remove) {
    o.log(`etcd: removing stale member ${id} before joining`);
    await client.memberRemove(id);
  }
  let id: string;
  let now: EtcdMember[];
  if (plan.kind === 'reuse') {
    id = plan.id;
    now = (await client.memberList()) as EtcdMember[];
  } else {
    const added = await client.memberAddAsLearner(o.peerURLs);
    id = added.member.id;
    now = added.members;
  }
  o.log(`etcd: joining as learner ${id}`);
  const voters = now.filter((m) => !m.isLearner && m.id !== id).flatMap((m) => m.clientURLs);
  return { id, initialCluster: initialClusterOf(now, id, o.name), voters };
}

/**
 * promoteLearner asks, every 2 s (up to 1 s jitter) for up to 10 min, that the learner become a voting
 * member; etcd refuses until the learner has caught up with the leader.
 */
export async function promoteLearner(o: {
  readonly endpoints: readonly string[];
  readonly tls: EtcdTLS;
  readonly id: string;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  readonly limitMs?: number;
}): Promise<boolean> {
  const deadline = Date.now() + (o.limitMs ?? 10 * 60_000);
  while (Date.now() < deadline) {
    o.signal.throwIfAborted();
    const client = new EtcdClient({ endpoints: o.endpoints, tls: o.tls, timeoutMs: 5_000 });
    try {
      await client.memberPromote(o.id);
      o.log(`etcd: member ${o.id} promoted to a voting member`);
      return true;
    } catch (e) {
      // promoted already (a restart after the promotion): nothing left to do
      if (/not a learner|member not learner/i.test((e as Error).message)) return true;
    } finally {
      client.close();
    }
    await delay(2_000 + Math.random() * 1_000, undefined, { signal: o.signal });
  }
  o.log(`etcd: member ${o.id} was not promoted within the time allowed`);
  return false;
}
