import { describe, expect, it } from 'vitest';
import type { BlockDevice } from '../../../../src/sys/block/devices/device.js';
import { type DeviceTable, observe, observeAll } from '../../../../src/sys/block/devices/generation.js';

const disk = (name: string, size = 0n): BlockDevice => ({
  name,
  devPath: `/dev/${name}`,
  devpath: `/devices/virtual/block/${name}`,
  major: 7,
  minor: 0,
  diskSeq: undefined,
  size,
  logicalSectorSize: 512,
  physicalSectorSize: 512,
  minimumIOSize: 512,
  optimalIOSize: 0,
  readonly: false,
  removable: false,
  rotational: false,
  cdrom: false,
  holders: [],
  dm: undefined,
  type: 'disk',
  secondaries: [],
  busPath: '/virtual',
});

const generations = (t: DeviceTable) => Object.fromEntries([...t].map(([k, v]) => [k, v.generation]));

describe('device generations', () => {
  it('starts a device at 1 and moves it on at every re-read, keeping the latest record', () => {
    let t: DeviceTable = new Map();
    t = observe(t, 'loop0', disk('loop0'));
    expect(generations(t)).toEqual({ loop0: 1 });
    t = observe(t, 'loop0', disk('loop0', 1n << 20n));
    expect(generations(t)).toEqual({ loop0: 2 });
    expect(t.get('loop0')?.device.size).toBe(1n << 20n);
  });

  it('drops a device read back as gone, and counts afresh if it comes back', () => {
    let t: DeviceTable = observe(new Map(), 'loop0', disk('loop0'));
    t = observe(t, 'loop0', undefined);
    expect(t.has('loop0')).toBe(false);
    expect(generations(observe(t, 'loop0', disk('loop0')))).toEqual({ loop0: 1 });
  });

  it('folds a full listing in: listed devices move on, unlisted ones go', () => {
    let t: DeviceTable = observeAll(new Map(), [disk('loop0'), disk('vda')]);
    t = observe(t, 'vda', disk('vda'));
    const before = t;
    t = observeAll(t, [disk('vda'), disk('loop1')]);
    expect(generations(t)).toEqual({ vda: 3, loop1: 1 });
    expect(generations(before)).toEqual({ loop0: 1, vda: 2 }); // tables are values: the old one is unchanged
  });
});
