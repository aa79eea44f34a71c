// The kubelet's node IPs: the config's subnets, the pick from the node's addresses, and the two
// controllers from a real config and the addresses the network side publishes.
import { describe, expect, it, onTestFinished } from 'vitest';
import { pickNodeIPs } from '../../../controllers/k8s/internal/node-ip.js';
import { NODEIP_ADDRESSES_ID, NodeIPController } from '../../../controllers/k8s/nodeip.js';
import { NodeIPConfigController, nodeIPConfigOf } from '../../../controllers/k8s/nodeip-config.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { KUBELET_ID, NodeIP, NodeIPConfig } from '../../../resources/k8s/index.js';
import { NodeAddress } from '../../../resources/network/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

const patch = (yaml: string) => loadPatch(yaml);

describe('nodeIPConfigOf', () => {
  it("takes any address of the service ranges' families and leaves out the pod, service and virtual IPs", async () => {
    const { controlplane, worker } = await mintCluster();
    expect(nodeIPConfigOf(worker)).toEqual({
      validSubnets: ['0.0.0.0/0'],
      excludeSubnets: ['10.244.0.0/16', '10.96.0.0/12'],
    });
    const dual = applyPatches(controlplane, [
      patch(`cluster:
  network:
    podSubnets: [10.244.0.0/16, "fd00:10:244::/56"]
    serviceSubnets: ["fd00:10:96::/112", 10.96.0.0/12]
machine:
  network:
    interfaces:
      - interface: eth0
        vip: { ip: 192.168.1.100 }
        vlans:
          - vlanId: 5
            vip: { ip: 192.168.5.100 }
`),
    ]);
    expect(nodeIPConfigOf(dual)).toEqual({
      validSubnets: ['::/0', '0.0.0.0/0'],
      excludeSubnets: [
        '10.244.0.0/16',
        'fd00:10:244::/56',
        'fd00:10:96::/112',
        '10.96.0.0/12',
        '192.168.1.100',
        '192.168.5.100',
      ],
    });
    const given = applyPatches(worker, [
      patch('machine:\n  kubelet:\n    nodeIP:\n      validSubnets: [172.20.0.0/16]\n'),
    ]);
    expect(nodeIPConfigOf(given)?.validSubnets).toEqual(['172.20.0.0/16']);
  });
});

describe('pickNodeIPs', () => {
  it('keeps the first IPv4 and the first IPv6 address that qualify, and names the rest', () => {
    const ips = ['10.244.0.7', '192.168.1.5', '192.168.2.5', 'fd00::5', '192.168.1.100', 'fd00::6'];
    expect(pickNodeIPs(ips, ['0.0.0.0/0', '::/0'], ['10.244.0.0/16', '192.168.1.100'])).toEqual({
      addresses: ['192.168.1.5', 'fd00::5'],
      skipped: ['192.168.2.5', 'fd00::6'],
    });
    expect(pickNodeIPs(ips, ['192.168.2.0/24'], [])).toEqual({ addresses: ['192.168.2.5'], skipped: [] });
    expect(pickNodeIPs(ips, ['172.16.0.0/12'], [])).toEqual({ addresses: [], skipped: [] });
  });
});

describe('k8s.NodeIPConfigController and k8s.NodeIPController', () => {
  it('pick the node IP from the routed addresses, follow a renumbering and a config change', async ({
    signal,
  }) => {
    const env = startRuntime([NodeIPConfigController, NodeIPController]);
    onTestFinished(env.stop);
    const { worker } = await mintCluster();
    const addresses = (...a: string[]) =>
      env.state.modify(NodeAddress.new('network', NODEIP_ADDRESSES_ID), (r) => {
        r.spec = { addresses: a };
      });
    await addresses('10.0.2.15/24', '172.20.0.5/16');
    await env.state.create(machineConfig(worker));
    const nodeIP = (...want: string[]) =>
      assertResource(env.state, NodeIP, KUBELET_ID, (r) => expect(r.spec.addresses).toEqual(want), {
        signal,
      });
    await assertResource(env.state, NodeIPConfig, KUBELET_ID, (r) =>
      expect(r.spec.validSubnets).toEqual(['0.0.0.0/0']),
    );
    await nodeIP('10.0.2.15');

    await addresses('10.0.2.16/24', '172.20.0.5/16');
    await nodeIP('10.0.2.16');

    const given = applyPatches(worker, [
      patch('machine:\n  kubelet:\n    nodeIP:\n      validSubnets: [172.20.0.0/16]\n'),
    ]);
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(given).spec;
    });
    await nodeIP('172.20.0.5');
  });
});
