import { describe, expect, it } from 'vitest';
import {
  type CelDisk,
  type CelVolume,
  compileBool,
  compiled,
  glob,
  isCelError,
  zeroDisk,
  zeroVolume,
} from '../../../../../controllers/block/internal/cel/index.js';

const MiB = 1 << 20;
const GiB = 2 ** 30;
const vol = (v: Partial<CelVolume>): CelVolume => ({ ...zeroVolume(), ...v });
const disk = (d: Partial<CelDisk>): CelDisk => ({ ...zeroDisk(), ...d });

const META =
  "volume.partition_label == 'META' && volume.name in ['', 'talosmeta'] && volume.size == 1048576u";
const STATE_NO_CONFIG = "volume.partition_label == 'STATE' && volume.name != ''";

describe('volume locators (upstream strings)', () => {
  it.each([
    ['META, raw', META, vol({ partition_label: 'META', size: MiB }), true],
    ['META, with its ADV', META, vol({ partition_label: 'META', name: 'talosmeta', size: MiB }), true],
    ['META of the wrong size', META, vol({ partition_label: 'META', size: 2 * MiB }), false],
    ['META formatted as xfs', META, vol({ partition_label: 'META', name: 'xfs', size: MiB }), false],
    ['a STATE label', "volume.partition_label == 'STATE'", vol({ partition_label: 'STATE' }), true],
    [
      'STATE without config, formatted',
      STATE_NO_CONFIG,
      vol({ partition_label: 'STATE', name: 'xfs' }),
      true,
    ],
    ['STATE without config, blank', STATE_NO_CONFIG, vol({ partition_label: 'STATE' }), false],
    ['metal agent', 'false', vol({ partition_label: 'STATE', name: 'xfs' }), false],
    ['by filesystem label', "volume.label == 'EPHEMERAL'", vol({ label: 'EPHEMERAL' }), true],
    [
      'by filesystem and size',
      "volume.name == 'ext4' && volume.size > 1000u * TB",
      vol({ name: 'ext4', size: 2 * 10 ** 15 }),
      true,
    ],
  ])('%s', (_, src, volume, want) => {
    expect(compileBool('volume locator', src).evaluate({ volume })).toBe(want);
  });

  it('reads the disk beside the volume', () => {
    const e = compileBool('volume locator', "volume.name == 'ext4' && disk.transport == 'nvme'");
    expect(e.evaluate({ volume: vol({ name: 'ext4' }), disk: disk({ transport: 'nvme' }) })).toBe(true);
    expect(e.evaluate({ volume: vol({ name: 'ext4' }), disk: disk({ transport: 'sata' }) })).toBe(false);
    expect(e.evaluate({ volume: vol({ name: 'ext4' }) })).toBe(false);
  });
});

describe('disk selectors (upstream strings)', () => {
  it.each([
    ['system disk', 'system_disk', disk({}), true, true],
    ['not the system disk', 'system_disk', disk({}), false, false],
    [
      'big, not rotational',
      'disk.size > 1000u * GiB && !disk.rotational',
      disk({ size: 2000 * GiB }),
      false,
      true,
    ],
    [
      'big, rotational',
      'disk.size > 1000u * GiB && !disk.rotational',
      disk({ size: 2000 * GiB, rotational: true }),
      false,
      false,
    ],
    ['small', 'disk.size > 1000u * GiB', disk({ size: 10 * GiB }), false, false],
    ['nvme', "disk.transport == 'nvme'", disk({ transport: 'nvme' }), false, true],
    [
      'glob over the path',
      "glob('/dev/sd[a-z]', disk.dev_path)",
      disk({ dev_path: '/dev/sdb' }),
      false,
      true,
    ],
    [
      'glob, no match',
      "glob('/dev/sd[a-z]', disk.dev_path)",
      disk({ dev_path: '/dev/nvme0n1' }),
      false,
      false,
    ],
    [
      'a symlink',
      "'/dev/disk/by-id/x' in disk.symlinks",
      disk({ symlinks: ['/dev/disk/by-id/x'] }),
      false,
      true,
    ],
  ])('%s', (_, src, d, systemDisk, want) => {
    expect(compileBool('disk selector', src).evaluate({ disk: d, system_disk: systemDisk })).toBe(want);
  });
});

describe('compile errors name the expression and the column', () => {
  it.each([
    ['volume locator', 'volume.name ==', 'syntax', 15],
    ['volume locator', 'volume.size == 1048576', 'type', 1],
    ['volume locator', 'volume.nope == 1u', 'type', 8],
    ['volume locator', 'system_disk', 'type', 1],
    ['disk selector', 'disk.size > 5 * GiB', 'type', 13],
    ['disk selector', 'disk.model', 'type', 1],
  ] as const)('%s %s', (env, src, code, column) => {
    let err: unknown;
    try {
      compileBool(env, src);
    } catch (e) {
      err = e;
    }
    expect(isCelError(err, code)).toBe(true);
    const e = err as Error;
    expect(e.message).toContain(JSON.stringify(src));
    expect(e.message).toContain(`column ${column}`);
  });
});

it('memoizes compiled expressions', () => {
  expect(compiled('disk selector', 'system_disk')).toBe(compiled('disk selector', 'system_disk'));
  expect(compiled('disk selector', 'system_disk')).not.toBe(compiled('volume locator', 'true'));
});

it.each([
  ['sd[a-z]', 'sda', true],
  ['sd[a-z]', 'sda1', false],
  ['nvme*', 'nvme0n1', true],
  ['loop?', 'loop1', true],
  ['a.b', 'axb', false],
])('glob(%s, %s) = %s', (p, s, want) => {
  expect(glob(p, s)).toBe(want);
});
