// The Kubernetes versions the images name: upstream's tag and support-window rules (RuntimeValidate), and
// Keel's whole-version tag, kube-proxy's image and the version skew policy against the API server.
import { describe, expect, it } from 'vitest';
import { kubernetesVersionOf } from '../../../src/config/validate/kubernetes-version.js';
import { configText, errorsFor, type Patch, type RuleCase, ruleTable } from './rule-table.js';

type Part = 'apiServer' | 'controllerManager' | 'scheduler' | 'proxy' | 'kubelet';
const repos: Record<Part, string> = {
  apiServer: 'registry.k8s.io/kube-apiserver',
  controllerManager: 'registry.k8s.io/kube-controller-manager',
  scheduler: 'registry.k8s.io/kube-scheduler',
  proxy: 'registry.k8s.io/kube-proxy',
  kubelet: 'ghcr.io/siderolabs/kubelet',
};
/** images sets each component's image to its repository at a tag, or '' (unset: the node's default) */
function images(tags: Partial<Record<Part, string>>): Patch {
  const ref = (p: Part) => (tags[p] === '' ? '' : `${repos[p]}:${tags[p]}`);
  const cluster = Object.fromEntries(
    (['apiServer', 'controllerManager', 'scheduler', 'proxy'] as const)
      .filter((p) => tags[p] !== undefined)
      .map((p) => [p, { image: ref(p) }]),
  );
  return {
    cluster,
    ...(tags.kubelet === undefined ? {} : { machine: { kubelet: { image: ref('kubelet') } } }),
  };
}
/** every control plane image at one tag (the fixture has them all at v1.36.3) */
const all = (tag: string, over: Partial<Record<Part, string>> = {}) =>
  images({ apiServer: tag, controllerManager: tag, scheduler: tag, proxy: tag, kubelet: tag, ...over });

const cases: RuleCase[] = [
  {
    rule: 'the kubelet tag is a version, not latest',
    valid: images({ kubelet: 'v1.34.4' }),
    invalid: images({ kubelet: 'latest' }),
    path: 'machine.kubelet.image',
    error:
      'kubelet image is not valid: failed to parse Kubernetes version from image reference "ghcr.io/siderolabs/kubelet:latest": tag "latest" is not a Kubernetes version',
  },
  {
    rule: 'the API server tag is a version, not v1.x',
    role: 'controlplane',
    valid: all('v1.35.2'),
    invalid: images({ apiServer: 'v1.x' }),
    path: 'cluster.apiServer.image',
    error: 'kube-apiserver image is not valid: failed to parse Kubernetes version from image reference',
  },
  {
    rule: 'the controller manager tag starts with v',
    role: 'controlplane',
    valid: images({ controllerManager: 'v1.36.0' }),
    invalid: images({ controllerManager: '1.34' }),
    path: 'cluster.controllerManager.image',
    error: 'kube-controller-manager image is not valid',
  },
  {
    rule: 'a digest alone names no version',
    role: 'controlplane',
    valid: { cluster: { scheduler: { image: `${repos.scheduler}:v1.36.3@sha256:${'a'.repeat(64)}` } } },
    invalid: { cluster: { scheduler: { image: `${repos.scheduler}@sha256:${'a'.repeat(64)}` } } },
    path: 'cluster.scheduler.image',
    error: `invalid image reference: "${repos.scheduler}@sha256:${'a'.repeat(64)}"`,
  },
  {
    rule: 'the kube-proxy tag is a whole version (Keel: upstream pads v1.36)',
    role: 'controlplane',
    valid: { cluster: { proxy: { image: 'localhost:5000/kube-proxy:v1.36.3' } } },
    invalid: { cluster: { proxy: { image: 'localhost:5000/kube-proxy:v1.36' } } },
    path: 'cluster.proxy.image',
    error: 'tag "v1.36" is not a Kubernetes version: expected v<major>.<minor>.<patch>',
  },
  {
    rule: 'pre-release and build are semver',
    role: 'controlplane',
    valid: all('v1.36.0-rc.1+keel.2'),
    invalid: all('v1.36.03'),
    path: 'cluster.apiServer.image',
    error: 'tag "v1.36.03" is not a Kubernetes version',
  },
  {
    rule: 'Talos 1.13 runs Kubernetes from 1.31',
    role: 'controlplane',
    valid: all('v1.31.0'),
    invalid: all('v1.30.14'),
    path: 'cluster.apiServer.image',
    error:
      'kube-apiserver image is not valid: version of Kubernetes 1.30.14 is too old to be used with Talos 1.13.0',
  },
  {
    rule: 'Talos 1.13 runs Kubernetes below 1.37',
    valid: images({ kubelet: 'v1.36.9' }),
    invalid: images({ kubelet: 'v1.37.0' }),
    path: 'machine.kubelet.image',
    error: 'kubelet image is not valid: version of Kubernetes 1.37.0 is too new to be used with Talos 1.13.0',
  },
  {
    rule: 'the kubelet is never newer than the API server',
    role: 'controlplane',
    valid: all('v1.35.0', { kubelet: 'v1.35.9' }),
    invalid: all('v1.35.0', { kubelet: 'v1.36.0' }),
    path: 'machine.kubelet.image',
    error:
      "kubelet v1.36.0 is newer than kube-apiserver v1.35.0 (cluster.apiServer.image): Kubernetes' version skew policy allows kubelet up to 3 minor versions older than kube-apiserver, never newer",
  },
  {
    rule: 'the kubelet trails the API server by 3 minor versions at most',
    role: 'controlplane',
    valid: all('v1.36.3', { kubelet: 'v1.33.0' }),
    invalid: all('v1.36.3', { kubelet: 'v1.32.9' }),
    path: 'machine.kubelet.image',
    error: 'kubelet v1.32.9 is 4 minor versions older than kube-apiserver v1.36.3',
  },
  {
    rule: 'the scheduler trails the API server by 1 minor version at most',
    role: 'controlplane',
    valid: all('v1.36.3', { scheduler: 'v1.35.0' }),
    invalid: all('v1.36.3', { scheduler: 'v1.34.4' }),
    path: 'cluster.scheduler.image',
    error: 'up to 1 minor version older than kube-apiserver',
  },
  {
    rule: 'the controller manager is never newer than the API server',
    role: 'controlplane',
    valid: all('v1.36.3', { controllerManager: 'v1.35.9' }),
    invalid: all('v1.35.0', { controllerManager: 'v1.36.0' }),
    path: 'cluster.controllerManager.image',
    error: 'kube-controller-manager v1.36.0 is newer than kube-apiserver v1.35.0',
  },
  {
    rule: 'kube-proxy trails the API server by 3 minor versions at most',
    role: 'controlplane',
    valid: all('v1.36.3', { proxy: 'v1.33.1' }),
    invalid: all('v1.36.3', { proxy: 'v1.32.0' }),
    path: 'cluster.proxy.image',
    error: 'kube-proxy v1.32.0 is 4 minor versions older than kube-apiserver v1.36.3',
  },
  {
    rule: 'an unset API server image is the version the node ships',
    role: 'controlplane',
    valid: all('v1.34.4', { apiServer: '' }),
    invalid: all('v1.35.0', { apiServer: '' }),
    path: 'machine.kubelet.image',
    error:
      'kubelet v1.35.0 is newer than kube-apiserver v1.34.4 (the default, as cluster.apiServer.image is unset)',
  },
  {
    rule: 'an unset component image is judged against the API server set',
    role: 'controlplane',
    valid: all('v1.35.0', { scheduler: '' }),
    invalid: all('v1.36.3', { scheduler: '' }),
    path: 'cluster.apiServer.image',
    error:
      'kube-scheduler v1.34.4 (the default, as cluster.scheduler.image is unset) is 2 minor versions older than kube-apiserver v1.36.3:',
  },
];

describe('Kubernetes versions', () => {
  ruleTable(cases);

  it('judges only the kubelet on a worker, as upstream: the control plane images are not its own', () => {
    const text = configText('worker', all('latest', { kubelet: 'v1.34.4' }));
    expect(errorsFor(text).map((e) => e.message)).toEqual([]);
  });

  it('refuses every component with a bad tag at its own field', () => {
    const paths = errorsFor(configText('controlplane', all('v1.x'))).map((e) => e.path);
    expect(paths.sort()).toEqual([
      'cluster.apiServer.image',
      'cluster.controllerManager.image',
      'cluster.proxy.image',
      'cluster.scheduler.image',
      'machine.kubelet.image',
    ]);
  });
});

describe('kubernetesVersionOf', () => {
  it.each([
    ['registry.k8s.io/kube-apiserver:v1.34.4', '1.34.4'],
    ['localhost:5000/kube-apiserver:v1.34.4', '1.34.4'],
    [`registry.k8s.io/kube-apiserver:v1.35.0-alpha.3@sha256:${'0'.repeat(64)}`, '1.35.0-alpha.3'],
    ['registry.k8s.io/kube-apiserver:v1.34.4+build.7', '1.34.4+build.7'],
  ])('%s is %s', (ref, text) => {
    const parsed = kubernetesVersionOf(ref);
    expect(parsed.ok && parsed.version.text).toBe(text);
  });

  it.each([
    ['registry.k8s.io/kube-apiserver', 'invalid image reference'],
    ['localhost:5000/kube-apiserver', 'invalid image reference'],
    ['registry.k8s.io/kube-apiserver:latest', 'tag "latest" is not a Kubernetes version'],
    ['registry.k8s.io/kube-apiserver:1.34.4', 'tag "1.34.4" is not a Kubernetes version'],
    ['registry.k8s.io/kube-apiserver:v1.34', 'tag "v1.34" is not a Kubernetes version'],
    ['registry.k8s.io/kube-apiserver:v01.34.4', 'tag "v01.34.4" is not a Kubernetes version'],
    ['registry.k8s.io/kube-apiserver:v1.34.4-', 'tag "v1.34.4-" is not a Kubernetes version'],
    ['registry.k8s.io/kube-apiserver:v1.34.4-rc.01', 'tag "v1.34.4-rc.01" is not a Kubernetes version'],
  ])('%s is refused: %s', (ref, problem) => {
    const parsed = kubernetesVersionOf(ref);
    expect(parsed.ok ? 'accepted' : parsed.problem).toContain(problem);
  });
});
