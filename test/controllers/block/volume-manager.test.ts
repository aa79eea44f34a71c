// VolumeManagerController on real loop disks: META found as the installer left it, STATE and EPHEMERAL
// partitioned and formatted with xfs; a foreign partition left as it was; a disk too small is Failed.
// The discovery inputs are made from blkid and sysfs, as the discovery controllers would make them
// (volume-disks.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync, readSync, truncateSync, writeSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { volumeConfigController } from '../../../controllers/block/volume-config.js';
import { volumeManagerController } from '../../../controllers/block/volume-manager.js';
import { FilesystemType, VolumePhase, VolumeStatus } from '../../../resources/block/index.js';
import { MachineConfig, type MachineConfigSpec } from '../../../resources/config/index.js';
import { assertResource, assertResources } from '../../../src/cosi/testing/assert-resources.js';
import { addPartition, PARTITION_TYPE, partitionByName, readGpt } from '../../../src/sys/block/gpt/index.js';
import { startRuntime } from '../secrets/env.js';
import { blkid, discover, GiB, installedDisk, installerDisk, MiB, WAIT } from './volume-disks.js';

const config = {
  documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine: { type: 'worker' } } }],
} as unknown as MachineConfigSpec;

/** allReady waits until every named volume is Ready without an error, and gives their statuses. */
const allReady = (env: ReturnType<typeof start>, ids: string[], signal: AbortSignal) =>
  assertResources(
    env.state,
    VolumeStatus,
    ids,
    (r) =>
      expect([r.metadata.id, r.spec.phase, r.spec.errorMessage]).toEqual([
        r.metadata.id,
        VolumePhase.Ready,
        '',
      ]),
    { signal, ...WAIT },
  );

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
    const ready = await allReady(env, ['META', 'STATE', 'EPHEMERAL'], signal);
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
    await allReady(env, ['META', 'STATE', 'EPHEMERAL'], signal);
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
    const ready = await allReady(env, ['META', 'STATE', 'EPHEMERAL'], signal);
    const eph = ready.get('EPHEMERAL')!.spec;
    expect(eph.location).toBe(`${loop.path}p3`);
    expect(eph.size).toBeGreaterThan(2.8 * GiB);
    expect(Number(loop.sysfs(3, 'size')) * 512).toBe(eph.size);
    expect(blkid(eph.location).UUID).toBe(uuid);
    expect(ready.get('STATE')?.spec.size).toBe(100 * MiB);
  });

  it('grows EPHEMERAL into a disk that grew after it was made, moving the backup GPT to the end', {
    timeout: 120_000,
  }, async ({ signal }) => {
    const loop = await installedDisk('xfs');
    // the virtual disk resized by its owner: the tables still end where the disk used to
    const backing = readFileSync(`/sys/block/${loop.name}/loop/backing_file`, 'utf8').trim();
    truncateSync(backing, 4 * GiB);
    execFileSync('losetup', ['-c', loop.path]);
    const env = start();
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    const eph = await assertResource(
      env.state,
      VolumeStatus,
      'EPHEMERAL',
      (r) => expect([r.spec.phase, r.spec.errorMessage]).toEqual([VolumePhase.Ready, '']),
      { signal, ...WAIT },
    );
    expect(eph.spec.size).toBeGreaterThan(3.8 * GiB);
    const { table, geometry } = await readGpt(loop.fd);
    expect(table.lastLba).toBe(geometry.diskSectors - 1n);
    expect(execFileSync('sgdisk', ['--verify', loop.path], { encoding: 'utf8' })).toMatch(
      /No problems found/,
    );
  });

  it('takes an installed STATE before any config, with the filesystem found on it', {
    timeout: 120_000,
  }, async ({ signal }) => {
    // the first boot from an installed disk: no config yet, so STATE's VolumeConfig names no provisioning
    // (and no filesystem); what is mounted is what discovery found there
    const loop = await installedDisk('xfs');
    const env = start();
    await discover(env.state, loop);
    const state = await assertResource(
      env.state,
      VolumeStatus,
      'STATE',
      (r) => expect([r.spec.phase, r.spec.errorMessage]).toEqual([VolumePhase.Ready, '']),
      { signal, ...WAIT },
    );
    expect(state.spec.location).toBe(`${loop.path}p2`);
    expect(state.spec.filesystem).toBe(FilesystemType.XFS);
    expect(state.spec.uuid).toBe(blkid(`${loop.path}p2`).UUID);
  });

  it('makes again an EPHEMERAL whose mkfs never finished, and keeps a whole STATE', {
    timeout: 120_000,
  }, async ({ signal }) => {
    // a power loss during the first boot's mkfs: the superblock says the filesystem is still being made
    const loop = await installedDisk('xfs');
    execFileSync('xfs_db', ['-x', '-c', 'sb 0', '-c', 'write inprogress 1', `${loop.path}p3`], {
      stdio: 'ignore',
    });
    const before = blkid(`${loop.path}p3`).UUID;
    const stateUuid = blkid(`${loop.path}p2`).UUID;
    const env = start();
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    const ready = await allReady(env, ['STATE', 'EPHEMERAL'], signal);
    const eph = ready.get('EPHEMERAL')!.spec;
    expect(eph.uuid).not.toBe(before);
    expect(blkid(eph.location)).toMatchObject({ TYPE: 'xfs', LABEL: 'EPHEMERAL', UUID: eph.uuid });
    const flag = execFileSync('xfs_db', ['-r', '-c', 'sb 0', '-c', 'p inprogress', eph.location], {
      encoding: 'utf8',
    });
    expect(flag.trim()).toBe('inprogress = 0');
    expect(ready.get('STATE')!.spec.uuid).toBe(stateUuid);
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
