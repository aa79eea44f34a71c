// The link settings between resources and kernel, as pure data: bond data by mode, its comparison with
// what the kernel reports back, and upstream's order of bonds and their slaves.
import { describe, expect, it } from 'vitest';
import {
  bondInfoOf,
  bondMasterOf,
  bondSettled,
} from '../../../../controllers/network/internal/kernel-links.js';
import { sortBonds } from '../../../../controllers/network/link-spec.js';
import { BondMode, bondMasterZero, linkSpecZero } from '../../../../resources/network/index.js';

describe('bond data', () => {
  it('sends mode-specific settings only for the modes that take them', () => {
    const b = {
      ...bondMasterZero(),
      mode: BondMode.ActiveBackup,
      miimon: 100,
      upDelay: 200,
      primaryIndex: 3,
    };
    const info = bondInfoOf(b);
    expect(info).toMatchObject({ mode: 1, miimon: 100, updelay: 200, primary: 3, arpInterval: 0 });
    expect(info).not.toHaveProperty('lacpRate');
    const lacp = bondInfoOf({ ...bondMasterZero(), mode: BondMode.LACP8023AD, lacpRate: 1 });
    expect(lacp).toMatchObject({ lacpRate: 1 });
    expect(lacp).not.toHaveProperty('arpInterval');
    expect(lacp).not.toHaveProperty('updelay');
  });

  it('settles when the kernel reports back what was sent, and a primary counts only when both name one', () => {
    const spec = { ...bondMasterZero(), mode: BondMode.ActiveBackup, miimon: 100, missedMax: 2 };
    const kernel = bondMasterOf({ ...bondInfoOf(spec), primary: 4 });
    expect(bondSettled(kernel, spec)).toBe(true);
    expect(bondSettled(kernel, { ...spec, primaryIndex: 5 })).toBe(false);
    expect(bondSettled(kernel, { ...spec, miimon: 200 })).toBe(false);
    expect(bondSettled(kernel, { ...spec, missedMax: 3 })).toBe(false);
    // missedMax does not count in 802.3ad
    const ad = { ...bondMasterZero(), mode: BondMode.LACP8023AD, missedMax: 2 };
    expect(bondSettled({ ...bondMasterOf(bondInfoOf(ad)), missedMax: 0 }, ad)).toBe(true);
  });
});

describe('sortBonds', () => {
  it('puts each bond slave after its bond, in slave order', () => {
    const l = (name: string, masterName = '', slaveIndex = 0) => ({
      spec: { ...linkSpecZero(), name, bondSlave: { masterName, slaveIndex } },
    });
    const order = sortBonds([l('eth1', 'bond0', 1), l('eth9'), l('bond0'), l('eth0', 'bond0', 0), l('aaa')]);
    expect(order.map((x) => x.spec.name)).toEqual(['aaa', 'bond0', 'eth0', 'eth1', 'eth9']);
  });
});
