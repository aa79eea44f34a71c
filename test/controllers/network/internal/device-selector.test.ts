// The device selector matcher: go-glob's semantics, upstream's field-by-field match, and the resolved entries.
import { describe, expect, it } from 'vitest';
import {
  glob,
  matchesSelector,
  resolveDevices,
  type SelectableLink,
} from '../../../../controllers/network/internal/device-selector.js';
import { LinkType } from '../../../../resources/network/link-enums.js';
import { type LinkStatusSpec, linkStatusZero } from '../../../../resources/network/link-status.js';

const link = (id: string, s: Partial<LinkStatusSpec>): SelectableLink => ({
  id,
  spec: { ...linkStatusZero(), type: LinkType.Ether, ...s },
});
const LINKS = [
  link('eth0', {
    hardwareAddr: '52:54:00:12:34:56',
    permanentAddr: '52:54:00:12:34:56',
    pciID: '1AF4:1000',
    driver: 'virtio_net',
    busPath: '0000:00:03.0',
  }),
  link('eth1', {
    hardwareAddr: '52:54:00:ab:cd:ef',
    permanentAddr: '52:54:00:ab:cd:ef',
    pciID: '8086:100E',
    driver: 'e1000',
    busPath: '0000:00:04.0',
  }),
  // a bond takes its first member's MAC, while its permanent address stays empty
  link('bond0', { hardwareAddr: '52:54:00:12:34:56', driver: 'bonding', kind: 'bond' }),
];

describe('glob, as ryanuber/go-glob', () => {
  it.each([
    ['', '', true],
    ['', 'a', false],
    ['*', '', true],
    ['*', 'anything', true],
    ['abc', 'abc', true],
    ['abc', 'abcd', false],
    ['52:54:*', '52:54:00:12:34:56', true],
    ['*:56', '52:54:00:12:34:56', true],
    ['*:00:*', '52:54:00:12:34:56', true],
    ['52*56', '52:54:00:12:34:56', true],
    ['52*57', '52:54:00:12:34:56', false],
    ['*54*', '52:54:00', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    // case-sensitive, as the Go original
    ['52:54:00:AB:*', '52:54:00:ab:cd:ef', false],
    // the last run must end the subject, after the runs before it
    ['*a*ab', 'aab', true],
    ['ab*b', 'ab', false],
    ['a*a', 'a', false],
  ])('%j against %j is %s', (pattern, subject, want) => {
    expect(glob(pattern, subject)).toBe(want);
  });
});

describe('matchesSelector', () => {
  const eth0 = LINKS[0]!.spec;
  it('needs every set glob to match', () => {
    expect(matchesSelector({ hardwareAddr: '52:54:00:*', driver: 'virtio*' }, eth0)).toBe(true);
    expect(matchesSelector({ hardwareAddr: '52:54:00:*', driver: 'e1000' }, eth0)).toBe(false);
    expect(matchesSelector({ pciID: '1AF4:*', busPath: '0000:00:03.*' }, eth0)).toBe(true);
    expect(matchesSelector({ permanentAddr: '*:56' }, eth0)).toBe(true);
  });
  it('lets physical decide when no glob refused the link', () => {
    const bond = LINKS[2]!.spec;
    expect(matchesSelector({ physical: true }, eth0)).toBe(true);
    expect(matchesSelector({ physical: true }, bond)).toBe(false);
    expect(matchesSelector({ physical: false }, bond)).toBe(true);
    expect(matchesSelector({ hardwareAddr: '52:54:00:12:34:56', physical: true }, bond)).toBe(false);
    expect(matchesSelector({ driver: 'e1000', physical: true }, eth0)).toBe(false);
  });
  it('matches nothing with nothing set', () => {
    expect(matchesSelector({}, eth0)).toBe(false);
    expect(matchesSelector({ driver: '' }, eth0)).toBe(false);
  });
});

describe('resolveDevices', () => {
  it('passes named entries through under <interface>/<index>', () => {
    const eth = { interface: 'eth0', addresses: ['10.0.0.2/24'], mtu: 1500 };
    const { devices } = resolveDevices([eth, { interface: 'eth0', addresses: ['10.0.1.2/24'] }], LINKS);
    expect(devices.map((d) => d.id)).toEqual(['eth0/000', 'eth0/001']);
    expect(devices[0]!.device).toEqual(eth);
  });

  it('makes one copy per matching link, keeping the selector and naming the link', () => {
    const dev = { deviceSelector: { hardwareAddr: '52:54:00:*', physical: true }, dhcp: true };
    const { devices, unmatched } = resolveDevices([{ interface: 'eth9', dhcp: true }, dev], LINKS);
    expect(unmatched).toEqual([]);
    expect(devices.map((d) => d.id)).toEqual(['eth9/000', 'eth0/001/000', 'eth1/001/001']);
    expect(devices[1]!.device).toEqual({ ...dev, interface: 'eth0' });
    expect(devices[2]!.device.interface).toBe('eth1');
    // a single match carries no third id part
    const one = resolveDevices([{ deviceSelector: { driver: 'e1000' }, mtu: 9000 }], LINKS);
    expect(one.devices).toEqual([
      { id: 'eth1/000', device: { deviceSelector: { driver: 'e1000' }, mtu: 9000, interface: 'eth1' } },
    ]);
  });

  it('skips an entry no link matches, and says why', () => {
    const { devices, unmatched } = resolveDevices([{ deviceSelector: { driver: 'mlx5_core' } }], LINKS);
    expect(devices).toEqual([]);
    expect(unmatched).toEqual([
      { index: 0, reason: 'no matching network device for selector {"driver":"mlx5_core"}' },
    ]);
  });

  it('turns bond selectors into members, leaving the bond itself out', () => {
    const bond = {
      interface: 'bond0',
      dhcp: true,
      bond: {
        mode: 'active-backup',
        deviceSelectors: [{ hardwareAddr: '52:54:00:12:*' }, { driver: 'e1000' }],
      },
    };
    const { devices } = resolveDevices([bond], LINKS);
    expect(devices).toEqual([
      {
        id: 'bond0/000',
        device: {
          interface: 'bond0',
          dhcp: true,
          bond: { mode: 'active-backup', interfaces: ['eth0', 'eth1'] },
        },
      },
    ]);
    // the config's own entry is left as it was
    expect(bond.bond.deviceSelectors).toHaveLength(2);
    const none = resolveDevices([{ ...bond, bond: { deviceSelectors: [{ driver: 'ixgbe' }] } }], LINKS);
    expect(none.devices).toEqual([]);
    expect(none.unmatched[0]!.reason).toBe(
      'no matching network device for bond selectors [{"driver":"ixgbe"}]',
    );
  });
});
