// "etcd members to be consistent across nodes" and "etcd members to be control plane nodes": upstream's
// EtcdConsistentAssertion and EtcdControlPlaneNodesAssertion over the member lists.
import type { NodeInfo } from '../cluster-info.js';
import { plainList, quoteList } from '../go-format.js';
import { type EtcdMemberFact, failuresText, type Gathered } from '../node-facts.js';
import { byNode } from './order.js';

const key = (m: EtcdMemberFact) => `${m.hostname}\0${m.id}\0${m.isLearner}`;

/** etcdConsistent wants every control plane to list the members the first one (by name) lists. */
export function etcdConsistent(g: Gathered<readonly EtcdMemberFact[]>): string | undefined {
  const failed = failuresText(g);
  if (failed) return failed;
  const [first, ...rest] = [...g.answers].sort(byNode);
  if (!first) return 'no messages returned';
  const known = new Map(first.value.map((m) => [key(m), m.hostname]));
  for (const { node, value } of rest) {
    if (value.length !== known.size)
      return `${node}: expected to have ${plainList([...known.values()])} members, got ${plainList(value.map((m) => m.hostname))}`;
    const unexpected = value.find((m) => !known.has(key(m)));
    if (unexpected) return `${node}: found unexpected etcd member ${unexpected.hostname}`;
  }
  return undefined;
}

/** peerHost is url.Parse(u).Hostname(): the host without brackets or port. */
function peerHost(u: string): string {
  try {
    return new URL(u).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    throw new Error(`parse ${JSON.stringify(u)}: invalid URL`);
  }
}

/** etcdMembersAreControlPlanes wants every member's peer address to be one of the control planes'. */
export function etcdMembersAreControlPlanes(
  members: readonly EtcdMemberFact[],
  controlPlanes: readonly NodeInfo[],
): string | undefined {
  const memberIPs = members.flatMap((m) => m.peerURLs.map(peerHost));
  const cpIPs = controlPlanes.flatMap((n) => n.ips);
  const cp = new Set(cpIPs);
  if (memberIPs.every((ip) => cp.has(ip))) return undefined;
  return `etcd member ips ${quoteList(memberIPs)} are not subset of control plane node ips ${quoteList(cpIPs)}`;
}
