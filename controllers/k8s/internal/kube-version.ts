// The Kubernetes version an image reference names, and what that version supports, as upstream's
// go-kubernetes compatibility package: the tag read leniently as semver, and any tag that is not a
// version taken for the newest (1.99.0), so a custom build gets today's flags.

export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const LATEST: KubeVersion = { major: 1, minor: 99, patch: 0 };

/** tagOf is the tag of an image reference (after any digest is cut), or '' when it has none. */
function tagOf(ref: string): string {
  const noDigest = ref.split('@')[0]!;
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  // a colon before the last slash is a registry port, not a tag
  return colon > lastSlash ? noDigest.slice(colon + 1) : '';
}

/** versionFromImageRef reads `repo:v1.34.4` as 1.34.4; `v1`, `1.34` are padded with zeros. */
export function versionFromImageRef(ref: string): KubeVersion {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(tagOf(ref).trim());
  if (!m) return LATEST;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0) };
}

export const versionString = (v: KubeVersion): string => `${v.major}.${v.minor}.${v.patch}`;

const atLeast = (v: KubeVersion, minor: number): boolean =>
  v.major > 1 || (v.major === 1 && v.minor >= minor);

/** the authorization config file exists from 1.29 */
export const supportsAuthorizationConfigFile = (v: KubeVersion): boolean => atLeast(v, 29);
/** StructuredAuthorizationConfiguration is on by default from 1.30 */
export const structuredAuthorizationByDefault = (v: KubeVersion): boolean => atLeast(v, 30);
/** the authorization config's apiVersion: v1beta1 from 1.30, v1alpha1 before */
export const authorizationConfigAPIVersion = (v: KubeVersion): string =>
  atLeast(v, 30) ? 'apiserver.config.k8s.io/v1beta1' : 'apiserver.config.k8s.io/v1alpha1';
/** --cloud-provider is gone from 1.33 */
export const cloudProviderFlagRemoved = (v: KubeVersion): boolean => atLeast(v, 33);
/** the scheduler's /livez and /readyz exist from 1.31; /healthz before */
export const schedulerHealthEndpoints = (v: KubeVersion) =>
  atLeast(v, 31)
    ? { liveness: '/livez', readiness: '/readyz', startup: '/livez' }
    : { liveness: '/healthz', readiness: '/healthz', startup: '/healthz' };
