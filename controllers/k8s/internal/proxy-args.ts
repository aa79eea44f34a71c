// kube-proxy's command-line arguments, as upstream's getProxyArgs builds them: the pod ranges, the node's
// name from the pod's environment, the in-cluster kubeconfig (which the user may not replace), the proxy
// mode, and conntrack sized by the kernel, then the user's extra arguments.
import { type Args, argList, mergeArgs } from './args.js';

/** nftables is kube-proxy's mode from Kubernetes 1.31, iptables before */
const NFTABLES_SINCE = [1, 31, 0] as const;

/** imageVersion is the image tag read as upstream's lenient semver (`v1.31` is 1.31.0, a pre-release counts
 * as its release), or undefined when there is no tag or it is no version. */
export function imageVersion(image: string): [number, number, number] | undefined {
  const ref = image.split('@')[0]!;
  const colon = ref.lastIndexOf(':');
  // a colon before the last slash is a registry's port, not a tag
  if (colon <= ref.lastIndexOf('/')) return undefined;
  const tag = ref
    .slice(colon + 1)
    .trim()
    .replace(/^v/, '');
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?([-+].*)?$/.exec(tag);
  // a short version cannot carry a pre-release or build (semver.ParseTolerant)
  if (!m || (m[3] === undefined && m[4] !== undefined)) return undefined;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

const atLeast = (v: readonly number[], min: readonly number[]): boolean => {
  for (let i = 0; i < min.length; i++) if (v[i] !== min[i]) return v[i]! > min[i]!;
  return true;
};

/** proxyModeOf is the configured mode, else the one the image's Kubernetes version defaults to. */
export function proxyModeOf(mode: string | undefined, image: string): string {
  if (mode) return mode;
  const v = imageVersion(image);
  return v && atLeast(v, NFTABLES_SINCE) ? 'nftables' : 'iptables';
}

export interface ProxySettings {
  readonly podCIDRs: readonly string[];
  readonly image: string;
  readonly mode?: string;
  readonly extraArgs?: Readonly<Record<string, string>>;
}

/** proxyArgsOf renders the arguments sorted by flag; a kubeconfig among the extra arguments is refused. */
export function proxyArgsOf(s: ProxySettings): string[] {
  const base: Args = new Map([
    ['cluster-cidr', [s.podCIDRs.join(',')]],
    ['hostname-override', ['$(NODE_NAME)']],
    ['kubeconfig', ['/etc/kubernetes/kubeconfig']],
    ['proxy-mode', [proxyModeOf(s.mode, s.image)]],
    // 0: keep the kernel's conntrack table size rather than resize it per core
    ['conntrack-max-per-core', ['0']],
  ]);
  const extra = new Map(Object.entries(s.extraArgs ?? {}).map(([k, v]) => [k, [v]]));
  return argList(mergeArgs(base, extra, { kubeconfig: 'denied' }));
}
