// The Kubernetes versions the v1alpha1 images name. Upstream's rule (RuntimeValidate, on the node): the
// tag after ":v" is a version inside the window its Talos release supports, for the kubelet's image on
// every node and the control plane's on control plane nodes. Keel's, on top, here so that `keelctl
// validate` refuses what a node would: the tag is a whole version, v<major>.<minor>.<patch> with semver's
// pre-release and build (no image is tagged v1.34, which upstream's tolerant parse pads to v1.34.0);
// kube-proxy's image counts too (the control plane renders its DaemonSet); and the components keep
// Kubernetes' version skew policy against the API server.
import { DEFAULT_KUBERNETES_VERSION } from '../generate/options.js';
import type { V1Alpha1Config } from '../types/v1alpha1/config.js';
import { isControlPlane, type RuleContext } from './context.js';

const q = JSON.stringify;

export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** as the tag has it, without the "v": `1.34.4`, `1.35.0-rc.1` */
  readonly text: string;
}

export type ParsedVersion =
  | { readonly ok: true; readonly version: KubeVersion }
  | { readonly ok: false; readonly problem: string };

// semver 2.0.0 after the "v": no leading zeros, dot-separated pre-release and build identifiers
const ident = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const SEMVER = new RegExp(
  `^v(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-${ident}(?:\\.${ident})*)?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
);

/** tagOf is the tag of an image reference, any digest cut; a colon before the last slash is a port. */
function tagOf(ref: string): string | undefined {
  const name = ref.split('@')[0]!;
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(colon + 1) : undefined;
}

/** kubernetesVersionOf reads the version an image reference's tag names. */
export function kubernetesVersionOf(ref: string): ParsedVersion {
  const tag = tagOf(ref);
  if (tag === undefined) return { ok: false, problem: `invalid image reference: ${q(ref)}` };
  const version = versionOfTag(tag);
  if (!version)
    return {
      ok: false,
      problem: `tag ${q(tag)} is not a Kubernetes version: expected v<major>.<minor>.<patch>`,
    };
  return { ok: true, version };
}

function versionOfTag(tag: string): KubeVersion | undefined {
  const m = SEMVER.exec(tag);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), text: tag.slice(1) };
}

/** Talos 1.13's window (upstream's compatibility/talos113): from 1.31.0, below 1.36.99. */
const TALOS = '1.13.0';
const MIN_KUBERNETES = [1, 31, 0] as const;
const MAX_KUBERNETES = [1, 36, 99] as const;

const core = (v: KubeVersion) => [v.major, v.minor, v.patch] as const;
const compare = (a: readonly number[], b: readonly number[]): number =>
  a.reduce((d, x, i) => d || Math.sign(x - b[i]!), 0);

/** supportProblem applies upstream's SupportedWith: pre-release and build are ignored. */
export function supportProblem(v: KubeVersion): string | undefined {
  if (compare(core(v), MIN_KUBERNETES) < 0)
    return `version of Kubernetes ${v.text} is too old to be used with Talos ${TALOS}`;
  if (compare(core(v), MAX_KUBERNETES) >= 0)
    return `version of Kubernetes ${v.text} is too new to be used with Talos ${TALOS}`;
  return undefined;
}

interface Component {
  readonly name: string;
  readonly path: string;
  readonly image: (c: V1Alpha1Config) => string | undefined;
  /**
   * minor versions it may trail the API server by, never leading it (the skew policy for 1.34: kubelet
   * and kube-proxy 3, the controller manager and scheduler 1); kube-proxy's ±3 of the kubelet follows
   */
  readonly maxBehind?: number;
}

const KUBELET: Component = {
  name: 'kubelet',
  path: 'machine.kubelet.image',
  image: (c) => c.machine?.kubelet?.image,
  maxBehind: 3,
};
const APISERVER: Component = {
  name: 'kube-apiserver',
  path: 'cluster.apiServer.image',
  image: (c) => c.cluster?.apiServer?.image,
};
const CONTROL_PLANE: readonly Component[] = [
  APISERVER,
  {
    name: 'kube-controller-manager',
    path: 'cluster.controllerManager.image',
    image: (c) => c.cluster?.controllerManager?.image,
    maxBehind: 1,
  },
  {
    name: 'kube-scheduler',
    path: 'cluster.scheduler.image',
    image: (c) => c.cluster?.scheduler?.image,
    maxBehind: 1,
  },
  { name: 'kube-proxy', path: 'cluster.proxy.image', image: (c) => c.cluster?.proxy?.image, maxBehind: 3 },
];

/** what an unset image stands for: the node runs the Kubernetes its image ships */
const DEFAULT = versionOfTag(`v${DEFAULT_KUBERNETES_VERSION}`)!;

interface Effective {
  readonly component: Component;
  readonly version: KubeVersion;
  /** the field that set it, or undefined for the default */
  readonly path?: string;
}

export function validateKubernetesVersions(c: V1Alpha1Config, ctx: RuleContext): void {
  const cp = isControlPlane(ctx);
  const effective: Effective[] = [];
  for (const component of cp ? [KUBELET, ...CONTROL_PLANE] : [KUBELET]) {
    const ref = component.image(c);
    if (!ref) {
      effective.push({ component, version: DEFAULT });
      continue;
    }
    const parsed = kubernetesVersionOf(ref);
    const bad = (problem: string) =>
      ctx.error(component.path, `${component.name} image is not valid: ${problem}`);
    if (!parsed.ok) {
      bad(`failed to parse Kubernetes version from image reference ${q(ref)}: ${parsed.problem}`);
      continue;
    }
    const outside = supportProblem(parsed.version);
    if (outside) bad(outside);
    else effective.push({ component, version: parsed.version, path: component.path });
  }
  // a worker's config does not say which API server it joins
  const api = cp ? effective.find((e) => e.component === APISERVER) : undefined;
  if (api) for (const e of effective) skew(e, api, ctx);
}

const behind = (v: KubeVersion, api: KubeVersion): number =>
  v.major === api.major ? api.minor - v.minor : v.major < api.major ? Infinity : -Infinity;
const where = (e: Effective) => e.path ?? `the default, as ${e.component.path} is unset`;
const minors = (n: number) => `${n} minor version${n === 1 ? '' : 's'}`;

function skew(e: Effective, api: Effective, ctx: RuleContext): void {
  const max = e.component.maxBehind;
  const n = behind(e.version, api.version);
  if (max === undefined || (n >= 0 && n <= max)) return;
  // reported on a field the config sets (two defaults always agree); the message names the other side
  const at = e.path ?? api.path!;
  const subject = `${e.component.name} v${e.version.text}${e.path ? '' : ` (${where(e)})`}`;
  const object = `kube-apiserver v${api.version.text}${at === api.path ? '' : ` (${where(api)})`}`;
  const gap = n < 0 ? 'is newer than' : `is ${Number.isFinite(n) ? minors(n) : 'a major version'} older than`;
  ctx.error(
    at,
    `${subject} ${gap} ${object}: Kubernetes' version skew policy allows ${e.component.name} ` +
      `up to ${minors(max)} older than kube-apiserver, never newer`,
  );
}
