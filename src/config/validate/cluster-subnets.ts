// v1alpha1 `cluster.network` pod and service subnets: each a CIDR, at most two, and no pod subnet
// overlapping a service subnet (Keel's rule: upstream has none, and such a cluster routes a Service's
// address to a pod, or the reverse).
import { DEFAULT_POD_SUBNETS, DEFAULT_SERVICE_SUBNETS } from '../generate/options.js';
import type { ClusterNetworkConfig } from '../types/v1alpha1/cluster.js';
import type { RuleContext } from './context.js';
import { isCIDR } from './formats.js';
import { overlaps, parsePrefix } from './prefix.js';

const q = JSON.stringify;
const at = 'cluster.network';

interface Subnet {
  readonly kind: 'pod' | 'service';
  readonly text: string;
  /** where it comes from: its field, or the default an unset list stands for */
  readonly from: string;
  readonly path?: string;
}

export function validateClusterSubnets(n: ClusterNetworkConfig, ctx: RuleContext): void {
  for (const k of ['podSubnets', 'serviceSubnets'] as const) {
    // host bits are accepted (10.244.1.0/8), as upstream's netip.ParsePrefix accepts them; every reader
    // (kube-controller-manager, kube-apiserver, flannel, the node's filters) masks them away
    n[k]?.forEach((s, i) => {
      if (!isCIDR(s)) ctx.error(`${at}.${k}[${i}]`, `${q(s)}: invalid network address: not a CIDR`);
    });
    if ((n[k]?.length ?? 0) > 2) ctx.error(`${at}.${k}`, 'at most one IPv4 and one IPv6 subnet');
  }
  const pods = subnets('pod', n.podSubnets, DEFAULT_POD_SUBNETS);
  const services = subnets('service', n.serviceSubnets, DEFAULT_SERVICE_SUBNETS);
  // a malformed one is reported above, and judged no further
  const prefixOf = (s: Subnet) => (isCIDR(s.text) ? parsePrefix(s.text) : undefined);
  for (const svc of services)
    for (const pod of pods) {
      const a = prefixOf(svc);
      const b = prefixOf(pod);
      if (!a || !b || !overlaps(a, b)) continue;
      // reported on a field the config sets: the default side only ever appears in the message
      const [here, there] = svc.path ? [svc, pod] : [pod, svc];
      ctx.error(
        here.path!,
        `${here.kind} subnet ${q(here.text)} overlaps ${there.kind} subnet ${q(there.text)} (${there.from})`,
      );
    }
}

/** subnets lists a field's entries, or the node's default when the list is unset or empty, as upstream. */
function subnets(
  kind: Subnet['kind'],
  list: readonly string[] | undefined,
  defaults: readonly string[],
): Subnet[] {
  const field = `${at}.${kind}Subnets`;
  if (!list?.length)
    return defaults.map((text) => ({ kind, text, from: `the default, as ${field} is unset` }));
  return list.map((text, i) => ({ kind, text, from: `${field}[${i}]`, path: `${field}[${i}]` }));
}
