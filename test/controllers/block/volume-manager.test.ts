// VolumeManagerController on real loop disks: META found as the installer left it, STATE and EPHEMERAL
// partitioned and formatted with xfs; a foreign partition left as it was; a disk too small is Failed.
// The discovery inputs are made here from blkid and sysfs, as the discovery controllers would make them.
import { execFileSync } from 'node:child_process';
import { readSync, writeSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { volumeConfigController } from '../../../controllers/block/volume-config.js';
import { volumeManagerController } from '../../../controllers/block/volume-manager.js';
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  DiscoveredVolumesStatus,
  Disk,
  prettySize,
  SYSTEM_DISK_ID,
  SystemDisk,
  VolumePhase,
  VolumeStatus,
} from '../../../resources/block/index.js';
import { MachineConfig, type MachineConfigSpec } from '../../../resources/config/index.js';
import { assertResource, assertResources } from '../../../src/cosi/testing/assert-resources.js';
import {
  addPartition,
  createTable,
  diskGeometry,
  type GptTable,
  PARTITION_TYPE,
  partitionByName,
  readGpt,
  writeGpt,
} from '../../../src/sys/block/gpt/index.js';
import { attachLoop, type Loop, sparseImage } from '../../sys/block/gpt/loop-device.js';
import { startRuntime } from '../secrets/env.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const WAIT = { timeoutMs: 90_000 };

const config = {
  documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine: { type: 'worker' } } }],
} as unknown as MachineConfigSpec;

/** installerDisk is a loop disk of `bytes` with the installer's 1 MiB META, plus `extra` partitions. */
async function installerDisk(bytes: number, extra: (t: GptTable) => GptTable = (t) => t): Promise<Loop> {
  if (process.getuid?.() !== 0) throw new Error('needs root: loop devices and mkfs');
  const loop = attachLoop(sparseImage(bytes));
  const g = await diskGeometry(loop.fd);
  let t = createTable({ diskSectors: g.diskSectors, sectorSize: g.sectorSize });
  t = addPartition(t, { name: 'META', type: PARTITION_TYPE.linuxFilesystem, size: MiB }).table;
  await writeGpt(loop.fd, extra(t));
  return loop;
}

/** format makes a filesystem on partition k with the host's mkfs (xfs allowed under 300 MB). */
function format(loop: Loop, k: number, kind: 'xfs' | 'vfat', label: string): void {
  const dev = `${loop.path}p${k}`;
  const env = { ...process.env, TEST_DIR: '1', TEST_DEV: '1', QA_CHECK_FS: '1' };
  if (kind === 'xfs') execFileSync('mkfs.xfs', ['-f', '-L', label, dev], { stdio: 'ignore', env });
  else execFileSync('mkfs.vfat', ['-n', label, dev], { stdio: 'ignore' });
}

/** installedDisk is a disk as a node left it: META, STATE (100 MiB) and a small EPHEMERAL, formatted. */
async function installedDisk(ephemeralFs: 'xfs' | 'vfat'): Promise<Loop> {
  const loop = await installerDisk(3 * GiB, (t) => {
    const s = addPartition(t, { name: 'STATE', type: PARTITION_TYPE.linuxFilesystem, size: 100 * MiB }).table;
    return addPartition(s, { name: 'EPHEMERAL', type: PARTITION_TYPE.linuxFilesystem, size: 400 * MiB })
      .table;
  });
  format(loop, 2, 'xfs', 'STATE');
  format(loop, 3, ephemeralFs, 'EPHEMERAL');
  return loop;
}

/** blkid reads a device's probe as `KEY=value` lines. */
function blkid(path: string): Record<string, string> {
  let out = '';
  try {
    out = execFileSync('blkid', ['-p', '-o', 'export', path], { encoding: 'utf8' });
  } catch (e) {
    if ((e as { status?: number }).status !== 2) throw e; // 2: nothing found
  }
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** discover publishes what the discovery controllers would: the disk, its partitions, the system disk. */
async function discover(state: ReturnType<typeof startRuntime>['state'], loop: Loop): Promise<void> {
  const size = Number((await diskGeometry(loop.fd)).sizeBytes);
  const disk = Disk.codec.empty();
  Object.assign(disk, {
    devPath: loop.path,
    size,
    prettySize: prettySize(size),
    sectorSize: 512,
    ioSize: 512,
  });
  await state.create(Disk.new(BLOCK_NAMESPACE, loop.name, disk));
  await state.create(
    SystemDisk.new(BLOCK_NAMESPACE, SYSTEM_DISK_ID, { diskID: loop.name, devPath: loop.path }),
  );
  const whole = DiscoveredVolume.codec.empty();
  Object.assign(whole, { devPath: loop.path, type: 'disk', size, name: 'gpt' });
  await state.create(DiscoveredVolume.new(BLOCK_NAMESPACE, loop.name, whole));
  const { table } = await readGpt(loop.fd);
  for (const p of table.partitions) {
    const path = `${loop.path}p${p.number}`;
    const facts = blkid(path);
    const v = DiscoveredVolume.codec.empty();
    const bytes = Number(loop.sysfs(p.number, 'size')) * 512;
    Object.assign(v, {
      devPath: path,
      type: 'partition',
      parent: loop.name,
      parentDevPath: loop.path,
      size: bytes,
      prettySize: prettySize(bytes),
      name: facts.TYPE ?? '',
      uuid: facts.UUID ?? '',
      label: facts.LABEL ?? '',
      partitionLabel: facts.PART_ENTRY_NAME ?? '',
      partitionUUID: (facts.PART_ENTRY_UUID ?? '').toLowerCase(),
      partitionType: (facts.PART_ENTRY_TYPE ?? '').toLowerCase(),
      partitionIndex: Number(facts.PART_ENTRY_NUMBER ?? p.number),
    });
    await state.create(DiscoveredVolume.new(BLOCK_NAMESPACE, `${loop.name}p${p.number}`, v));
  }
  await state.create(
    DiscoveredVolumesStatus.new(BLOCK_NAMESPACE, DISCOVERED_VOLUMES_STATUS_ID, { ready: true }),
  );
}

function start() {
  const env = startRuntime([volumeConfigController(), volumeManagerController({ retryMs: 200 })]);
  onTestFinished(env.stop);
  return env;
}

describe('block.VolumeManagerController on loop disks', () => {
  it('finds META, provisions STATE and EPHEMERAL on a blank disk, with xfs', { timeout: 120_000 }, async ({
    signal,
  }) => {
    const loop = await installerDisk(3 * GiB);
    const env = start();
    await discover(env.state, loop);
    // without a config: META is found, a STATE that is not there is missing
    await assertResource(
      env.state,
      VolumeStatus,
      'META',
      (r) => expect(r.spec.phase).toBe(VolumePhase.Ready),
      {
        signal,
        ...WAIT,
      },
    );
    await assertResource(
      env.state,
      VolumeStatus,
      'STATE',
      (r) => expect(r.spec.phase).toBe(VolumePhase.Missing),
      {
        signal,
        ...WAIT,
      },
    );

    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    const ready = await assertResources(
      env.state,
      VolumeStatus,
      ['META', 'STATE', 'EPHEMERAL'],
      (r) =>
        expect([r.metadata.id, r.spec.phase, r.spec.errorMessage]).toEqual([
          r.metadata.id,
          VolumePhase.Ready,
          '',
        ]),
      { signal, ...WAIT },
    );
    expect(ready.get('META')?.spec.location).toBe(`${loop.path}p1`);
    const state = ready.get('STATE')!.spec;
    const eph = ready.get('EPHEMERAL')!.spec;
    expect([state.location, state.parentLocation, state.partitionIndex]).toEqual([
      `${loop.path}p2`,
      loop.path,
      2,
    ]);
    expect(state.size).toBe(100 * MiB);
    expect(eph.location).toBe(`${loop.path}p3`);
    expect(eph.size).toBeGreaterThan(2.8 * GiB);
    expect(blkid(state.location)).toMatchObject({ TYPE: 'xfs', LABEL: 'STATE', PART_ENTRY_NAME: 'STATE' });
    expect(blkid(eph.location)).toMatchObject({
      TYPE: 'xfs',
      LABEL: 'EPHEMERAL',
      PART_ENTRY_NAME: 'EPHEMERAL',
    });
    expect(blkid(eph.location).UUID).toBe(eph.uuid);
    expect(eph.partitionUUID).toBe(blkid(eph.location).PART_ENTRY_UUID?.toLowerCase());
    expect(eph.mountLocation).toBe(eph.location);
  });

  it('leaves a foreign partition untouched', { timeout: 120_000 }, async ({ signal }) => {
    const loop = await installerDisk(
      3 * GiB,
      (t) => addPartition(t, { name: 'DATA', type: PARTITION_TYPE.linuxFilesystem, size: 200 * MiB }).table,
    );
    const before = (await readGpt(loop.fd)).table;
    const data = partitionByName(before, 'DATA')!;
    const pattern = Buffer.alloc(MiB, 0x5a);
    const fd = loop.openPartition(data.number, 'r+');
    writeSync(fd, pattern, 0, pattern.length, 0);
    const env = start();
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    await assertResources(
      env.state,
      VolumeStatus,
      ['META', 'STATE', 'EPHEMERAL'],
      (r) =>
        expect([r.metadata.id, r.spec.phase, r.spec.errorMessage]).toEqual([
          r.metadata.id,
          VolumePhase.Ready,
          '',
        ]),
      { signal, ...WAIT },
    );
    const after = (await readGpt(loop.fd)).table;
    expect(partitionByName(after, 'DATA')).toEqual(data);
    expect(after.diskGuid).toBe(before.diskGuid);
    expect(after.partitions.map((p) => p.name)).toEqual(['META', 'DATA', 'STATE', 'EPHEMERAL']);
    const back = Buffer.alloc(MiB);
    readSync(fd, back, 0, MiB, 0);
    expect(back.equals(pattern)).toBe(true);
    expect(blkid(`${loop.path}p${data.number}`).TYPE).toBeUndefined();
  });

  it('fails a volume the disk is too small for, naming it and the size', { timeout: 120_000 }, async ({
    signal,
  }) => {
    const loop = await installerDisk(GiB);
    const env = start();
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    await assertResource(
      env.state,
      VolumeStatus,
      'STATE',
      (r) => expect(r.spec.phase).toBe(VolumePhase.Ready),
      {
        signal,
        ...WAIT,
      },
    );
    const eph = await assertResource(
      env.state,
      VolumeStatus,
      'EPHEMERAL',
      (r) => expect(r.spec.phase).toBe(VolumePhase.Failed),
      { signal, ...WAIT },
    );
    expect(eph.spec.preFailPhase).toBe(VolumePhase.Waiting);
    expect(eph.spec.errorMessage).toContain('volume EPHEMERAL needs 2147483648 bytes');
    expect((await readGpt(loop.fd)).table.partitions.map((p) => p.name)).toEqual(['META', 'STATE']);
  });

  it('grows a located EPHEMERAL to fill the disk and keeps its filesystem', { timeout: 120_000 }, async ({
    signal,
  }) => {
    const loop = await installedDisk('xfs');
    const uuid = blkid(`${loop.path}p3`).UUID;
    const env = start();
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    const ready = await assertResources(
      env.state,
      VolumeStatus,
      ['META', 'STATE', 'EPHEMERAL'],
      (r) =>
        expect([r.metadata.id, r.spec.phase, r.spec.errorMessage]).toEqual([
          r.metadata.id,
          VolumePhase.Ready,
          '',
        ]),
      { signal, ...WAIT },
    );
    const eph = ready.get('EPHEMERAL')!.spec;
    expect(eph.location).toBe(`${loop.path}p3`);
    expect(eph.size).toBeGreaterThan(2.8 * GiB);
    expect(Number(loop.sysfs(3, 'size')) * 512).toBe(eph.size);
    expect(blkid(eph.location).UUID).toBe(uuid);
    expect(ready.get('STATE')?.spec.size).toBe(100 * MiB);
  });

  it('fails a located volume holding another filesystem, and leaves it', { timeout: 120_000 }, async ({
    signal,
  }) => {
    const loop = await installedDisk('vfat');
    const env = start();
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    const eph = await assertResource(
      env.state,
      VolumeStatus,
      'EPHEMERAL',
      (r) => expect(r.spec.phase).toBe(VolumePhase.Failed),
      { signal, ...WAIT },
    );
    expect(eph.spec.preFailPhase).toBe(VolumePhase.Prepared);
    expect(eph.spec.errorMessage).toBe(`filesystem type mismatch on ${loop.path}p3: found vfat, want xfs`);
    expect(blkid(`${loop.path}p3`)).toMatchObject({ TYPE: 'vfat', LABEL: 'EPHEMERAL' });
  });
});
