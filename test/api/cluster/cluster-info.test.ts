import { describe, expect, it } from 'vitest';
import {
  allNodes,
  clusterFromKubernetes,
  discoveredMessage,
  parseAddr,
  requestedCluster,
} from '../../../src/api/cluster/cluster-info.js';

describe('the nodes of a health check', () => {
  it('reads control planes and workers from cluster_info, as talosctl sends its flags', () => {
    const c = requestedCluster({
      control_plane_nodes: ['10.5.0.2', '10.5.0.3'],
      worker_nodes: ['10.5.0.4'],
      force_endpoint: '',
    })!;
    expect(c.controlPlanes.map((n) => n.internalIP)).toEqual(['10.5.0.2', '10.5.0.3']);
    expect(c.workers).toEqual([{ internalIP: '10.5.0.4', ips: ['10.5.0.4'] }]);
    expect(discoveredMessage(c)).toBe('discovered nodes: ["10.5.0.2" "10.5.0.3" "10.5.0.4"]');
  });

  it('names no cluster when the request names no node, and refuses what is not an IP', () => {
    expect(requestedCluster(undefined)).toBeUndefined();
    expect(requestedCluster({ control_plane_nodes: [], worker_nodes: [] })).toBeUndefined();
    expect(() => requestedCluster({ control_plane_nodes: ['node-1'] })).toThrow(
      'ParseAddr("node-1"): unable to parse IP',
    );
    expect(parseAddr('FD00:0:0::1')).toBe('fd00::1');
  });

  it('discovers the Kubernetes nodes, control planes by their label, leaving out a node with no internal IP', () => {
    const node = (name: string, ip: string | undefined, cp: boolean) => ({
      metadata: {
        name,
        labels: cp ? { 'node-role.kubernetes.io/control-plane': '' } : ({} as Record<string, string>),
      },
      status: {
        addresses: [
          { type: 'Hostname', address: name },
          ...(ip ? [{ type: 'InternalIP', address: ip }] : []),
          { type: 'ExternalIP', address: '203.0.113.9' },
        ],
      },
    });
    const c = clusterFromKubernetes([
      node('cp', '10.5.0.2', true),
      node('w', '10.5.0.4', false),
      node('x', undefined, false),
    ]);
    expect(c.controlPlanes).toEqual([{ internalIP: '10.5.0.2', ips: ['10.5.0.2', '203.0.113.9'] }]);
    expect(allNodes(c).map((n) => n.internalIP)).toEqual(['10.5.0.2', '10.5.0.4']);
  });
});
