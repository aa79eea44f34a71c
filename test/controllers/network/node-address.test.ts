// The address views as controllers publish them, from statuses the kernel side would write.
import { describe, expect, it, onTestFinished } from 'vitest';
import { AddressFilterController } from '../../../controllers/k8s/address-filter.js';
import { HardwareAddrController } from '../../../controllers/network/hardware-addr.js';
import {
  ADDRESS_STATUS_CONTROLLER,
  NodeAddressController,
} from '../../../controllers/network/node-address.js';
import { NodeAddressSortAlgorithmController } from '../../../controllers/network/node-address-sort-algorithm.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  AddressStatus,
  HardwareAddr,
  LinkStatus,
  LinkType,
  linkStatusZero,
  NETWORK_NAMESPACE,
  NodeAddress,
  NodeAddressFilter,
  OperationalState,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { mintCluster, startRuntime } from '../secrets/env.js';

const link = (name: string, index: number, up: boolean, mac: string) =>
  LinkStatus.new(NETWORK_NAMESPACE, name, {
    ...linkStatusZero(),
    index,
    type: LinkType.Ether,
    hardwareAddr: mac,
    operationalState: up ? OperationalState.Up : OperationalState.Down,
    linkState: up,
  });

const address = (linkName: string, linkIndex: number, prefix: string) =>
  AddressStatus.new(NETWORK_NAMESPACE, `${linkName}/${prefix}`, {
    ...AddressStatus.codec.empty(),
    address: prefix,
    local: prefix.split('/')[0]!,
    linkIndex,
    linkName,
    family: 2,
  });

describe('network.NodeAddressController', () => {
  it('publishes the views, keeps the cert view accumulating, and filters pod and service CIDRs once a cluster config exists', async ({
    signal,
  }) => {
    const env = startRuntime([
      NodeAddressController,
      NodeAddressSortAlgorithmController,
      AddressFilterController,
      HardwareAddrController,
    ]);
    onTestFinished(env.stop);
    const owner = { owner: ADDRESS_STATUS_CONTROLLER };
    await env.state.create(link('eth0', 2, true, '52:54:00:12:34:56'), owner);
    await env.state.create(link('eth1', 3, false, '52:54:00:12:34:57'), owner);
    await env.state.create(address('eth0', 2, '10.0.2.15/24'), owner);
    await env.state.create(address('eth1', 3, '192.168.9.2/24'), owner);
    await env.state.create(address('eth0', 2, '10.244.0.7/32'), owner);

    const view = (id: string, want: string[]) =>
      assertResource(env.state, NodeAddress, id, (r) => expect(r.spec.addresses).toEqual(want), { signal });
    await view('default', ['10.0.2.15/24']);
    await view('current', ['10.0.2.15/24', '10.244.0.7/32']);
    await view('routed', ['10.0.2.15/24', '10.244.0.7/32']);
    await view('accumulative', ['10.0.2.15/24', '10.244.0.7/32', '192.168.9.2/24']);
    await assertResource(env.state, HardwareAddr, 'first', (r) =>
      expect(r.spec).toEqual({ name: 'eth0', hardwareAddr: '52:54:00:12:34:56' }),
    );

    // a DHCP renumbering: the old address leaves current but stays in accumulative
    await env.state.destroy(AddressStatus.pointer('eth0/10.0.2.15/24'), owner);
    await env.state.create(address('eth0', 2, '10.0.2.16/24'), owner);
    await view('current', ['10.0.2.16/24', '10.244.0.7/32']);
    await view('default', ['10.0.2.16/24']);
    await view('accumulative', ['10.0.2.15/24', '10.0.2.16/24', '10.244.0.7/32', '192.168.9.2/24']);

    const cluster = await mintCluster();
    await env.state.create(MachineConfig.new('config', 'v1alpha1', cluster.controlplane));
    await assertResource(env.state, NodeAddressFilter, 'no-k8s', (r) =>
      expect(r.spec.excludeSubnets).toEqual(['10.244.0.0/16', '10.96.0.0/12']),
    );
    await view('accumulative-no-k8s', ['10.0.2.16/24', '192.168.9.2/24']);
    await view('current-only-k8s', ['10.244.0.7/32']);

    await env.state.destroy(MachineConfig.pointer('v1alpha1'));
    await assertNoResource(env.state, NodeAddressFilter, 'no-k8s', { signal });
    await assertNoResource(env.state, NodeAddress, 'accumulative-no-k8s', { signal });
  });
});
