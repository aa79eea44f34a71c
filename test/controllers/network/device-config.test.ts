// network.DeviceConfigController on a real runtime: the config's interfaces against the LinkStatuses created here.
import { describe, expect, it, onTestFinished } from 'vitest';
import { DeviceConfigController } from '../../../controllers/network/device-config.js';
import { networkConfigControllers } from '../../../controllers/network/index.js';
import { AddressSpec } from '../../../resources/network/address-spec.js';
import { DeviceConfigSpec } from '../../../resources/network/device-config-spec.js';
import { LinkType } from '../../../resources/network/link-enums.js';
import { LinkStatus, type LinkStatusSpec, linkStatusZero } from '../../../resources/network/link-status.js';
import { RouteSpec } from '../../../resources/network/route-spec.js';
import { decode } from '../../../src/config/index.js';
import {
  assertLength,
  assertNoResource,
  assertResource,
} from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, startRuntime } from './env.js';

const config = (interfaces: string) =>
  machineConfig(
    decode(`version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n${interfaces}`),
  );
const linkStatus = (id: string, s: Partial<LinkStatusSpec>) =>
  LinkStatus.new('network', id, { ...linkStatusZero(), type: LinkType.Ether, ...s });

describe('network.DeviceConfigController', () => {
  it('publishes named entries, resolves selectors, and follows the links', async () => {
    const env = startRuntime([DeviceConfigController]);
    onTestFinished(env.stop);
    await env.state.create(linkStatus('eth0', { hardwareAddr: '52:54:00:12:34:56', driver: 'virtio_net' }));
    await env.state.create(
      config(
        [
          '      - interface: eth3',
          '        addresses: [10.3.0.2/24]',
          '      - deviceSelector:',
          '          hardwareAddr: "52:54:00:*"',
          '          physical: true',
          '        mtu: 9000',
          '        dhcp: true',
          '      - interface: bond0',
          '        dhcp: true',
          '        bond:',
          '          mode: active-backup',
          '          deviceSelectors:',
          '            - driver: e1000e',
          '',
        ].join('\n'),
      ),
    );
    await assertResource(env.state, DeviceConfigSpec, 'eth3/000', (r) =>
      expect(r.spec.device).toEqual({ interface: 'eth3', addresses: ['10.3.0.2/24'] }),
    );
    await assertResource(env.state, DeviceConfigSpec, 'eth0/001', (r) =>
      expect(r.spec.device).toEqual({
        interface: 'eth0',
        deviceSelector: { hardwareAddr: '52:54:00:*', physical: true },
        mtu: 9000,
        dhcp: true,
      }),
    );
    // no e1000e link yet: the bond waits for one
    await assertLength(env.state, DeviceConfigSpec, 2);

    await env.state.create(linkStatus('eth1', { hardwareAddr: '52:54:00:ab:cd:ef', driver: 'e1000e' }));
    await assertResource(env.state, DeviceConfigSpec, 'bond0/002', (r) =>
      expect(r.spec.device).toEqual({
        interface: 'bond0',
        dhcp: true,
        bond: { mode: 'active-backup', interfaces: ['eth1'] },
      }),
    );
    // the second link matches the selector too, so its copies are numbered
    await assertNoResource(env.state, DeviceConfigSpec, 'eth0/001');
    await assertResource(env.state, DeviceConfigSpec, 'eth0/001/000', (r) =>
      expect(r.spec.device.interface).toBe('eth0'),
    );
    await assertResource(env.state, DeviceConfigSpec, 'eth1/001/001', (r) =>
      expect(r.spec.device.interface).toBe('eth1'),
    );
    await assertLength(env.state, DeviceConfigSpec, 4);

    // a link that goes away takes its resolved entry with it
    await env.state.destroy(LinkStatus.new('network', 'eth0', linkStatusZero()).metadata);
    await assertResource(env.state, DeviceConfigSpec, 'eth1/001', (r) =>
      expect(r.spec.device).toMatchObject({ interface: 'eth1', mtu: 9000 }),
    );
    await assertLength(env.state, DeviceConfigSpec, 3);
  });

  it('withdraws every spec when the config goes away', async () => {
    const env = startRuntime([DeviceConfigController]);
    onTestFinished(env.stop);
    await env.state.create(linkStatus('eth0', { driver: 'virtio_net' }));
    const cfg = config(
      '      - deviceSelector: {driver: virtio_net}\n      - interface: eth5\n        ignore: true\n',
    );
    await env.state.create(cfg);
    await assertResource(env.state, DeviceConfigSpec, 'eth0/000', (r) =>
      expect(r.spec.device.deviceSelector).toEqual({ driver: 'virtio_net' }),
    );
    // ignored entries are published too, as upstream: the consumers skip them
    await assertResource(env.state, DeviceConfigSpec, 'eth5/001', (r) =>
      expect(r.spec.device.ignore).toBe(true),
    );
    await env.state.destroy(cfg.metadata);
    await assertLength(env.state, DeviceConfigSpec, 0);
  });

  it('lets the config controllers configure the link a selector picked', async () => {
    const env = startRuntime(networkConfigControllers());
    onTestFinished(env.stop);
    await env.state.create(
      config(
        [
          '      - deviceSelector: {driver: e1000e}',
          '        addresses: [10.9.0.2/24]',
          '        routes:',
          '          - network: 0.0.0.0/0',
          '            gateway: 10.9.0.1',
          '',
        ].join('\n'),
      ),
    );
    await env.state.create(linkStatus('eth0', { driver: 'virtio_net' }));
    await env.state.create(linkStatus('eth1', { driver: 'e1000e' }));
    await assertResource(env.state, AddressSpec, 'eth1/10.9.0.2/24', (r) =>
      expect(r.spec).toMatchObject({ linkName: 'eth1', configLayer: 4 }),
    );
    await assertResource(env.state, RouteSpec, 'inet4/10.9.0.1//1024', (r) =>
      expect(r.spec).toMatchObject({ outLinkName: 'eth1', configLayer: 4 }),
    );
  });
});
