// The default checks read through a fake environment: their order and words, and how each one's reads
// feed its assertion (container nodes left out of the size checks, an older API skipped, add-ons absent).
import { describe, expect, it } from 'vitest';
import { type CheckEnv, DEFAULT_CLUSTER_CHECKS } from '../../../../src/api/cluster/checks/default.js';
import type { ClusterInfo } from '../../../../src/api/cluster/cluster-info.js';
import type { KubeReads } from '../../../../src/api/cluster/kube.js';
import type { NodeFacts } from '../../../../src/api/cluster/node-facts.js';
import { ApiError } from '../../../../src/api/errors.js';

const GiB = 2 ** 30;

/** healthyNode answers as a healthy metal control plane does; `o` overrides any read. */
function healthyNode(node: string, o: Partial<NodeFacts> = {}): NodeFacts {
  const running = { events: [{ state: 'Running', msg: 'Health check successful' }], healthy: true };
  return {
    node,
    service: async () => running,
    etcdMembers: async () => [
      { id: '1', hostname: 'cp-1', peerURLs: [`https://${node}:2380`], isLearner: false },
    ],
    platform: async () => ({ container: false }),
    memTotalKiB: async () => 2 * 1024 * 1024,
    ephemeral: async () => ({ location: '/dev/vda6', size: 5 * GiB }),
    diagnostics: async () => [],
    machineStage: async () => 'running',
    staticPods: async () =>
      ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].map((p) => `kube-system/${p}-cp-1`),
    ...o,
  };
}

const cpNode = {
  metadata: { name: 'cp-1', labels: { 'node-role.kubernetes.io/control-plane': '' } },
  status: {
    addresses: [{ type: 'InternalIP', address: '10.5.0.2' }],
    conditions: [{ type: 'Ready', status: 'True' }],
  },
};
const readyPod = (name: string) => ({
  metadata: { name },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ state: {} }],
  },
});

/** healthyKube answers as a one-node cluster's API server does: control plane, kube-proxy and CoreDNS ready. */
function healthyKube(o: Partial<KubeReads> = {}): KubeReads {
  return {
    nodes: async () => [cpNode],
    pods: async (_ns, selector) => {
      const app = /k8s-app ?= ?(\S+)/.exec(selector ?? '')?.[1] ?? 'x';
      return [readyPod(`${app}-cp-1`)];
    },
    // kube-proxy's alone: a self-hosted control plane's daemon sets are long gone
    daemonSets: async (_ns, selector) =>
      selector === 'k8s-app=kube-proxy'
        ? [{ metadata: { name: 'kube-proxy' }, status: { desiredNumberScheduled: 1 } }]
        : [],
    deployments: async () => [{ metadata: { name: 'coredns' }, spec: { replicas: 1 } }],
    close: () => {},
    ...o,
  };
}

const cluster: ClusterInfo = { controlPlanes: [{ internalIP: '10.5.0.2', ips: ['10.5.0.2'] }], workers: [] };

function envOf(o: { node?: Partial<NodeFacts>; kube?: Partial<KubeReads>; cni?: string } = {}): CheckEnv {
  const node = healthyNode('10.5.0.2', o.node);
  return {
    cluster,
    factsOf: () => node,
    local: node,
    cniName: async () => o.cni ?? 'flannel',
    kube: healthyKube(o.kube),
  };
}

const run = (description: string, env: CheckEnv) => {
  const c = DEFAULT_CLUSTER_CHECKS.find((x) => x.description === description);
  if (!c) throw new Error(`no check ${description}`);
  return c.assert(env, AbortSignal.timeout(5_000));
};

describe('DEFAULT_CLUSTER_CHECKS', () => {
  it('are upstream’s, in its order, polled every 5 s (the first node listing every 30 s)', () => {
    expect(DEFAULT_CLUSTER_CHECKS.map((c) => c.description)).toEqual([
      'etcd to be healthy',
      'etcd members to be consistent across nodes',
      'etcd members to be control plane nodes',
      'apid to be ready',
      'all nodes memory sizes',
      'all nodes disk sizes',
      'no diagnostics',
      'kubelet to be healthy',
      'all nodes to finish boot sequence',
      'all k8s nodes to report',
      'all control plane static pods to be running',
      'all control plane components to be ready',
      'all k8s nodes to report ready',
      'kube-proxy to report ready',
      'coredns to report ready',
      'all k8s nodes to report schedulable',
    ]);
    expect(DEFAULT_CLUSTER_CHECKS.filter((c) => c.intervalMs !== 5_000).map((c) => c.description)).toEqual([
      'all k8s nodes to report',
    ]);
  });

  it('all hold on a healthy one-node cluster', async () => {
    const env = envOf();
    for (const c of DEFAULT_CLUSTER_CHECKS)
      expect(await c.assert(env, AbortSignal.timeout(5_000)), c.description).toEqual({ kind: 'ok' });
  });

  it('leave a container node out of the size checks, and judge a metal one', async () => {
    const small = {
      memTotalKiB: async () => 1024 * 1024,
      ephemeral: async () => ({ location: '/dev/vda6', size: GiB }),
    };
    expect(
      await run(
        'all nodes memory sizes',
        envOf({ node: { ...small, platform: async () => ({ container: true }) } }),
      ),
    ).toEqual({ kind: 'ok' });
    expect(await run('all nodes memory sizes', envOf({ node: small }))).toEqual({
      kind: 'fail',
      reason:
        '1 error occurred:\n\t* node "10.5.0.2" does not meet memory requirements: expected at least 1698 MiB, actual 1024 MiB\n\n',
    });
    expect(await run('all nodes disk sizes', envOf({ node: small }))).toMatchObject({
      kind: 'fail',
      reason: expect.stringContaining('is too small, expected at least 3.8 GiB, actual 1.0 GiB'),
    });
  });

  it('word a node whose API fails as the client’s node error, under the check’s own words', async () => {
    const down = async () => {
      throw new ApiError('unavailable', 'connection refused');
    };
    expect(await run('apid to be ready', envOf({ node: { platform: down } }))).toEqual({
      kind: 'fail',
      reason: '1 error occurred:\n\t* 10.5.0.2: rpc error: code = Unavailable desc = connection refused\n\n',
    });
    expect(await run('all nodes memory sizes', envOf({ node: { platform: down } }))).toMatchObject({
      reason: expect.stringMatching(/^error getting version: 1 error occurred:/),
    });
    expect(
      await run('all control plane static pods to be running', envOf({ node: { staticPods: down } })),
    ).toEqual({
      kind: 'fail',
      reason:
        'error listing static pods on node 10.5.0.2: rpc error: code = Unavailable desc = connection refused',
    });
  });

  it('skip what does not apply: no kube-proxy, no CoreDNS, no CNI of their own; disks an API cannot tell', async () => {
    expect(await run('kube-proxy to report ready', envOf({ kube: { daemonSets: async () => [] } }))).toEqual({
      kind: 'skip',
    });
    expect(await run('coredns to report ready', envOf({ kube: { deployments: async () => [] } }))).toEqual({
      kind: 'skip',
    });
    expect(await run('coredns to report ready', envOf({ cni: 'none' }))).toEqual({ kind: 'skip' });
    expect(await run('all k8s nodes to report ready', envOf({ cni: 'none' }))).toEqual({ kind: 'skip' });
    const denied = async () => {
      throw new ApiError('permission-denied', 'resource type is not supported');
    };
    expect(await run('all nodes disk sizes', envOf({ node: { ephemeral: denied } }))).toEqual({
      kind: 'skip',
    });
  });

  it('find the missing static pods and a control plane component not ready', async () => {
    expect(
      await run(
        'all control plane static pods to be running',
        envOf({ node: { staticPods: async () => [] } }),
      ),
    ).toMatchObject({
      reason: expect.stringMatching(
        /^missing static pods on node 10\.5\.0\.2: \[kube-system\/kube-apiserver /,
      ),
    });
    const pods: KubeReads['pods'] = async (_ns, selector) =>
      selector === 'k8s-app = kube-scheduler'
        ? [
            {
              metadata: { name: 'kube-scheduler-cp-1' },
              status: { conditions: [{ type: 'Ready', status: 'False' }] },
            },
          ]
        : [readyPod('x')];
    expect(await run('all control plane components to be ready', envOf({ kube: { pods } }))).toEqual({
      kind: 'fail',
      reason: 'some pods are not ready for kube-scheduler: [kube-scheduler-cp-1]',
    });
  });
});
