import { describe, expect, it } from 'vitest';
import {
  controlPlanePodsReady,
  daemonSetReplicas,
  daemonSetsScheduled,
  deploymentReplicas,
  missingStaticPods,
  podsReady,
} from '../../../../src/api/cluster/checks/kubernetes-pods.js';
import type { KubePod } from '../../../../src/api/cluster/kube-objects.js';

const pod = (
  name: string,
  o: { ready?: string; phase?: string; deleted?: boolean; terminated?: boolean } = {},
): KubePod => ({
  metadata: {
    name,
    namespace: 'kube-system',
    ...(o.deleted ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  status: {
    phase: o.phase ?? 'Running',
    conditions: o.ready ? [{ type: 'Ready', status: o.ready }] : [],
    containerStatuses: [{ state: o.terminated ? { terminated: { exitCode: 0 } } : {} }],
  },
});

describe('missingStaticPods (all control plane static pods to be running)', () => {
  it('finds the three static pods among those the node’s kubelet reports', () => {
    const ids = [
      'kube-system/kube-apiserver-cp-1',
      'kube-system/kube-controller-manager-cp-1',
      'kube-system/kube-scheduler-cp-1',
      'kube-system/other-cp-1',
    ];
    expect(missingStaticPods('10.5.0.2', ids)).toBeUndefined();
  });

  it('names what is missing, sorted', () => {
    expect(missingStaticPods('10.5.0.2', ['kube-system/kube-scheduler-cp-1'])).toBe(
      'missing static pods on node 10.5.0.2: [kube-system/kube-apiserver kube-system/kube-controller-manager]',
    );
    expect(missingStaticPods('10.5.0.2', [])).toBe(
      'missing static pods on node 10.5.0.2: [kube-system/kube-apiserver kube-system/kube-controller-manager kube-system/kube-scheduler]',
    );
  });
});

describe('all control plane components to be ready', () => {
  it('wants one pod per control plane node, none not ready', () => {
    expect(
      controlPlanePodsReady('kube-apiserver', [pod('kube-apiserver-cp-1', { ready: 'True' })], 1),
    ).toBeUndefined();
    expect(controlPlanePodsReady('kube-scheduler', [], 1)).toBe(
      'expected number of pods for kube-scheduler to be 1, got 0',
    );
    expect(controlPlanePodsReady('kube-scheduler', [pod('kube-scheduler-cp-1', { ready: 'False' })], 1)).toBe(
      'some pods are not ready for kube-scheduler: [kube-scheduler-cp-1]',
    );
  });

  it('wants self-hosted daemon sets fully scheduled', () => {
    expect(daemonSetsScheduled([])).toBeUndefined();
    expect(
      daemonSetsScheduled([
        {
          metadata: { name: 'kube-apiserver' },
          status: {
            desiredNumberScheduled: 3,
            currentNumberScheduled: 3,
            numberAvailable: 2,
            numberReady: 2,
          },
        },
      ]),
    ).toBe('expected number available for kube-apiserver to be 3, got 2');
  });
});

describe('podsReady (kube-proxy / coredns to report ready)', () => {
  const sel = 'k8s-app=kube-dns';
  it('holds when the live pods are all ready and as many as the replicas', () => {
    const pods = [
      pod('coredns-a', { ready: 'True' }),
      pod('coredns-b', { ready: 'True' }),
      pod('old', { deleted: true }),
    ];
    expect(podsReady(pods, 2, 'kube-system', sel)).toBeUndefined();
  });

  it('says what is wrong, in upstream’s order of checks', () => {
    expect(podsReady([], 2, 'kube-system', sel)).toBe(
      'no pods found for namespace "kube-system" and label selector "k8s-app=kube-dns"',
    );
    expect(podsReady([pod('coredns-a', { ready: 'False' })], 2, 'kube-system', sel)).toBe(
      'no ready pods found for namespace "kube-system" and label selector "k8s-app=kube-dns"',
    );
    expect(podsReady([pod('coredns-a', { ready: 'True' }), pod('coredns-b')], 2, 'kube-system', sel)).toBe(
      'some pods are not ready: [coredns-b]',
    );
    // failed and completed pods are left out
    const pods = [
      pod('coredns-a', { ready: 'True' }),
      pod('x', { phase: 'Failed' }),
      pod('y', { terminated: true }),
    ];
    expect(podsReady(pods, 2, 'kube-system', sel)).toBe('expected 2 ready pods, got 1');
  });

  it('reads the replicas of the first daemon set or deployment, none when there is none (skipped)', () => {
    expect(daemonSetReplicas([])).toBeUndefined();
    expect(daemonSetReplicas([{ status: { desiredNumberScheduled: 3 } }])).toBe(3);
    expect(deploymentReplicas([])).toBeUndefined();
    expect(deploymentReplicas([{ spec: { replicas: 2 } }])).toBe(2);
  });
});
