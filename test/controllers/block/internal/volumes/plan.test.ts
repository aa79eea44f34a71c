import { describe, expect, it } from 'vitest';
import { zeroDisk } from '../../../../../controllers/block/internal/cel/index.js';
import {
  byProvisioningOrder,
  formatRefusal,
  growTo,
  locateOutcome,
  matchDisks,
  partitionPath,
  partitionSize,
  retryPhase,
  systemWaveDeclared,
  waveProvisioned,
} from '../../../../../controllers/block/internal/volumes/index.js';
import {
  FilesystemType,
  type PartitionSpec,
  VolumePhase,
  WAVE_SYSTEM_DISK,
  WAVE_USER_VOLUMES,
  zeroPartitionSpec,
  zeroProvisioning,
} from '../../../../../resources/block/index.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const part = (p: Partial<PartitionSpec>): PartitionSpec => ({ ...zeroPartitionSpec(), ...p });

describe('partitionSize', () => {
  it.each([
    [
      'STATE: min = max',
      part({ minSize: 100 * MiB, maxSize: 100 * MiB }),
      3 * GiB,
      3 * GiB,
      { ok: true, size: 100 * MiB },
    ],
    [
      'EPHEMERAL: no max takes all',
      part({ minSize: 2 * GiB, grow: true }),
      2.8 * GiB,
      3 * GiB,
      { ok: true, size: 2.8 * GiB },
    ],
    ['EPHEMERAL on a small disk', part({ minSize: 2 * GiB }), 900 * MiB, GiB, { ok: false, needed: 2 * GiB }],
    ['max caps', part({ minSize: GiB, maxSize: 5 * GiB }), 10 * GiB, 10 * GiB, { ok: true, size: 5 * GiB }],
    [
      'max above the room',
      part({ minSize: GiB, maxSize: 50 * GiB }),
      10 * GiB,
      10 * GiB,
      { ok: true, size: 10 * GiB },
    ],
    [
      'relative 50% of the disk',
      part({ minSize: GiB, relativeMaxSize: 50 }),
      9 * GiB,
      10 * GiB,
      { ok: true, size: 5 * GiB },
    ],
    [
      'negative: leave 2 GiB',
      part({ minSize: GiB, maxSize: 2 * GiB, negativeMaxSize: true }),
      10 * GiB,
      10 * GiB,
      { ok: true, size: 8 * GiB },
    ],
    [
      'negative, too little left',
      part({ minSize: GiB, maxSize: 2 * GiB, negativeMaxSize: true }),
      2.5 * GiB,
      3 * GiB,
      { ok: false, needed: 3 * GiB },
    ],
    [
      'negative relative: leave 10%',
      part({ minSize: GiB, relativeMaxSize: 10, negativeMaxSize: true }),
      10 * GiB,
      10 * GiB,
      { ok: true, size: 9 * GiB },
    ],
    ['a full disk', part({ minSize: MiB }), 0, GiB, { ok: false, needed: MiB }],
  ])('%s', (_, p, available, disk, want) => {
    expect(partitionSize(p, available, disk)).toEqual(want);
  });
});

describe('growTo', () => {
  it.each([
    ['all the room', part({ grow: true }), GiB, 2 * GiB, 10 * GiB, 3 * GiB],
    ['capped by max', part({ grow: true, maxSize: 2 * GiB }), GiB, 5 * GiB, 10 * GiB, 2 * GiB],
    ['never shrinks', part({ grow: true, maxSize: GiB }), 2 * GiB, 5 * GiB, 10 * GiB, 2 * GiB],
    ['relative cap', part({ grow: true, relativeMaxSize: 50 }), GiB, 9 * GiB, 10 * GiB, 5 * GiB],
  ])('%s', (_, p, current, room, disk, want) => {
    expect(growTo(p, current, room, disk)).toBe(want);
  });
});

describe('locateOutcome', () => {
  const base = { located: false, devicesReady: true, provisionable: true, previousWaveProvisioned: true };
  it.each([
    ['found', { ...base, located: true, devicesReady: false }, 'located'],
    ['devices not all seen', { ...base, devicesReady: false }, 'waiting'],
    ['nothing to provision with', { ...base, provisionable: false }, 'missing'],
    ['an earlier wave is busy', { ...base, previousWaveProvisioned: false }, 'waiting'],
    ['provision', base, 'provision'],
  ] as const)('%s', (_, inputs, want) => {
    expect(locateOutcome(inputs)).toBe(want);
  });
});

it('orders by wave, growing volumes last', () => {
  const v = (wave: number, grow: boolean) => ({
    ...zeroProvisioning(),
    wave,
    partitionSpec: part({ grow, label: `${wave}${grow ? 'g' : ''}` }),
  });
  const sorted = [v(0, false), v(-1, true), v(-1, false), v(0, true)].sort(byProvisioningOrder);
  expect(sorted.map((s) => s.partitionSpec.label)).toEqual(['-1', '-1g', '0', '0g']);
});

it('waits for earlier waves only', () => {
  const vols = [
    { wave: -1, phase: VolumePhase.Ready },
    { wave: 0, phase: VolumePhase.Waiting },
  ];
  expect(waveProvisioned(vols, 0)).toBe(true);
  expect(waveProvisioned(vols, 1)).toBe(false);
  expect(waveProvisioned([{ wave: -1, phase: VolumePhase.Located }], 0)).toBe(false);
  expect(waveProvisioned([{ wave: -1, phase: VolumePhase.Missing }], 0)).toBe(true);
});

it('holds the user wave until EPHEMERAL, which takes what the system disk leaves, is declared', () => {
  // STATE is declared before EPHEMERAL: a user volume provisioned in between would take EPHEMERAL's room
  expect(systemWaveDeclared(new Set(['META', 'STATE', 'u-data']), WAVE_USER_VOLUMES)).toBe(false);
  expect(systemWaveDeclared(new Set(['META', 'STATE', 'EPHEMERAL', 'u-data']), WAVE_USER_VOLUMES)).toBe(true);
  expect(systemWaveDeclared(new Set(['STATE']), WAVE_SYSTEM_DISK)).toBe(true);
});

it('refuses to make filesystems other than xfs', () => {
  const fs = (type: FilesystemType) => ({ type, label: '' });
  expect(formatRefusal(fs(FilesystemType.XFS))).toBeUndefined();
  expect(formatRefusal(fs(FilesystemType.None))).toBeUndefined();
  expect(formatRefusal(fs(FilesystemType.EXT4))).toBe('making ext4 filesystems is not supported (only xfs)');
});

it('retries a failure from the phase it failed in', () => {
  expect(retryPhase(VolumePhase.Failed, VolumePhase.Prepared)).toBe(VolumePhase.Prepared);
  expect(retryPhase(VolumePhase.Ready, VolumePhase.Waiting)).toBe(VolumePhase.Ready);
});

it('matches writable disks by selector', () => {
  const d = (dev_path: string, extra: object = {}) => ({ ...zeroDisk(), dev_path, size: 10 * GiB, ...extra });
  const disks = [
    { disk: d('/dev/sda'), systemDisk: true },
    { disk: d('/dev/sdb', { transport: 'nvme' }), systemDisk: false },
    { disk: d('/dev/sdc', { readonly: true, transport: 'nvme' }), systemDisk: false },
    { disk: d('/dev/sr0', { cdrom: true }), systemDisk: false },
  ];
  expect(matchDisks('system_disk', disks).map((x) => x.dev_path)).toEqual(['/dev/sda']);
  expect(matchDisks("disk.transport == 'nvme'", disks).map((x) => x.dev_path)).toEqual(['/dev/sdb']);
  expect(matchDisks('disk.size >= 10u * GiB', disks).map((x) => x.dev_path)).toEqual([
    '/dev/sda',
    '/dev/sdb',
  ]);
});

it.each([
  ['/dev/sda', 3, '/dev/sda3'],
  ['/dev/nvme0n1', 1, '/dev/nvme0n1p1'],
  ['/dev/loop7', 2, '/dev/loop7p2'],
  ['/dev/vdb', 12, '/dev/vdb12'],
])('partition %s %i is %s', (disk, n, want) => {
  expect(partitionPath(disk, n)).toBe(want);
});
