import { describe, expect, it } from 'vitest';
import {
  allNodesReported,
  controlPlaneMembership,
  nodesMatch,
  nodesReady,
  nodesSchedulable,
} from '../../../../src/api/cluster/checks/kubernetes-nodes.js';
import type { KubeNode } from '../../../../src/api/cluster/kube-objects.js';

const info = (...ips: string[]) => ({ internalIP: ips[0]!, ips });
const node = (
  name: string,
  ip: string,
  o: { cp?: boolean; ready?: string; cordoned?: boolean } = {},
): KubeNode => ({
  metadata: { name, labels: o.cp ? { 'node-role.kubernetes.io/control-plane': '' } : {} },
  spec: o.cordoned ? { unschedulable: true } : {},
  status: {
    addresses: [
      { type: 'InternalIP', address: ip },
      { type: 'Hostname', address: name },
    ],
    conditions: o.ready ? [{ type: 'Ready', status: o.ready }] : [],
  },
});

describe('nodesMatch (cluster.NodesMatch)', () => {
  it('pairs each expected node with a distinct node sharing an address', () => {
    expect(
      nodesMatch([info('10.5.0.2'), info('10.5.0.3')], [info('10.5.0.3', '1.2.3.4'), info('10.5.0.2')]),
    ).toBeUndefined();
  });

  it('names an expected node not found, then nodes left over (addresses sorted as netip)', () => {
    expect(nodesMatch([info('10.5.0.2'), info('10.5.0.9')], [info('10.5.0.2')])).toBe(
      `can't find expected node with IPs ["10.5.0.9"]`,
    );
    expect(
      nodesMatch([info('10.5.0.2')], [info('10.5.0.2'), info('fd00::3'), info('10.5.0.10', '10.5.0.4')]),
    ).toBe('unexpected nodes with IPs ["10.5.0.4" "10.5.0.10" "fd00::3"]');
  });
});

describe('the node checks', () => {
  const cp = node('cp-1', '10.5.0.2', { cp: true, ready: 'True' });
  const w = node('w-1', '10.5.0.4', { ready: 'False', cordoned: true });

  it('all k8s nodes to report: the Kubernetes nodes are the cluster’s', () => {
    expect(allNodesReported([info('10.5.0.2'), info('10.5.0.4')], [cp, w])).toBeUndefined();
    expect(allNodesReported([info('10.5.0.2')], [])).toBe(`can't find expected node with IPs ["10.5.0.2"]`);
  });

  it('control plane membership: the labelled nodes are the control planes', () => {
    expect(controlPlaneMembership([info('10.5.0.2')], [cp, w])).toBeUndefined();
    expect(controlPlaneMembership([info('10.5.0.2'), info('10.5.0.4')], [cp, w])).toBe(
      `can't find expected node with IPs ["10.5.0.4"]`,
    );
  });

  it('ready and schedulable, naming the nodes that are not', () => {
    expect(nodesReady([cp])).toBeUndefined();
    expect(nodesReady([cp, w, node('new', '10.5.0.5')])).toBe('some nodes are not ready: [w-1]');
    expect(nodesSchedulable([cp])).toBeUndefined();
    expect(nodesSchedulable([cp, w, node('w-2', '10.5.0.6', { cordoned: true })])).toBe(
      'some nodes are not schedulable: [w-1]',
    );
  });
});
