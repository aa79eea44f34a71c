// User and raw volumes on real loop disks, through the whole chain: config → block.UserVolumeConfigController
// → block.VolumeManagerController (partition, xfs) → block.MountController (mounted in EPHEMERAL, under a
// scratch root instead of the host's /var). Covers a second disk, the room an EPHEMERAL with a maxSize leaves
// on the system disk, the wait for the system disk wave, a raw volume, the refusals, and a volume dropped
// from the config (unmounted and forgotten, its partition and data kept).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mountController } from '../../../controllers/block/mount.js';
import { userVolumeConfigController } from '../../../controllers/block/user-volume-config.js';
import { systemVolumes, volumeConfigController } from '../../../controllers/block/volume-config.js';
import { volumeManagerController } from '../../../controllers/block/volume-manager.js';
import {
  BLOCK_NAMESPACE,
  FilesystemType,
  VolumeConfig,
  VolumeMountRequest,
  VolumeMountStatus,
  VolumePhase,
  VolumeStatus,
} from '../../../resources/block/index.js';
import { MachineConfig, type MachineConfigSpec } from '../../../resources/config/index.js';
import type { Controller } from '../../../src/cosi/controller/index.js';
import {
  assertNoResource,
  assertResource,
  assertResources,
} from '../../../src/cosi/testing/assert-resources.js';
import { readGpt } from '../../../src/sys/block/gpt/index.js';
import { mountedAt } from '../../../src/sys/block/volume-mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';
import { startRuntime } from '../secrets/env.js';
import { blankDisk, blkid, discover, GiB, installerDisk, MiB, WAIT } from './volume-disks.js';

type Doc = { kind: string; name?: string; spec: object };
const cfg = (...extra: Doc[]): MachineConfigSpec =>
  ({
    documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine: { type: 'worker' } } }, ...extra],
  }) as unknown as MachineConfigSpec;
const doc = (kind: string, name: string, spec: object): Doc => ({ kind, name, spec: { name, ...spec } });
const user = (name: string, match: string, size: object, more: object = {}) =>
  doc('UserVolumeConfig', name, { provisioning: { diskSelector: { match }, ...size }, ...more });
const ephemeralMax = (maxSize: string) => doc('VolumeConfig', 'EPHEMERAL', { provisioning: { maxSize } });

const ready = (r: { metadata: { id: string }; spec: { phase: number; errorMessage: string } }) =>
  expect([r.metadata.id, r.spec.phase, r.spec.errorMessage]).toEqual([r.metadata.id, VolumePhase.Ready, '']);
const partitionNames = async (fd: number) => (await readGpt(fd)).table.partitions.map((p) => p.name);

/**
 * node runs the block volume chain under a scratch root, EPHEMERAL asked for as the Boot sequence asks
 * for it. Mounts are taken down (children first), then the loop disks detached, however the test ends.
 */
function node(controllers?: Controller[]) {
  const root = mkdtempSync(join(tmpdir(), 'keel-uv-'));
  onTestFinished(() => {
    const ours = readMountInfo()
      .filter((m) => m.mountPoint.startsWith(`${root}/`))
      .reverse();
    for (const m of ours) execFileSync('umount', ['-l', m.mountPoint]);
    rmSync(root, { recursive: true, force: true });
  });
  const env = startRuntime(
    controllers ?? [
      volumeConfigController(),
      userVolumeConfigController(),
      volumeManagerController({ retryMs: 200 }),
      mountController({ rootPrefix: root, detachedRoot: join(root, 'detached'), retryMs: 200 }),
    ],
  );
  onTestFinished(env.stop);
  const askForEphemeral = () =>
    env.state.create(
      VolumeMountRequest.new(BLOCK_NAMESPACE, 'sequencer-EPHEMERAL', {
        volumeID: 'EPHEMERAL',
        requester: 'sequencer',
        readOnly: false,
        detached: false,
      }),
    );
  const configure = (spec: MachineConfigSpec) =>
    env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = spec;
    });
  return { ...env, root, askForEphemeral, configure };
}

describe('user volumes on loop disks', () => {
  it('makes a user volume on a second disk, mounts it inside EPHEMERAL, and keeps it on disk when dropped', {
    timeout: 120_000,
  }, async ({ signal }) => {
    const sys = await installerDisk(3 * GiB);
    const second = blankDisk(GiB);
    const n = node();
    await discover(n.state, sys, { done: false });
    await discover(n.state, second, { system: false });
    await n.askForEphemeral();
    await n.configure(
      cfg(
        user('data', '!system_disk', { minSize: '500MiB' }),
        doc('UserVolumeConfig', 'scratch', { volumeType: 'directory' }),
      ),
    );

    const st = await assertResources(n.state, VolumeStatus, ['EPHEMERAL', 'u-data', 'u-scratch'], ready, {
      signal,
      ...WAIT,
    });
    const data = st.get('u-data')!.spec;
    expect([data.location, data.parentLocation, data.partitionIndex]).toEqual([
      `${second.path}p1`,
      second.path,
      1,
    ]);
    expect(data.size).toBeGreaterThan(0.99 * GiB);
    expect(data.filesystem).toBe(FilesystemType.XFS);
    expect(blkid(data.location)).toMatchObject({ TYPE: 'xfs', PART_ENTRY_NAME: 'u-data', UUID: data.uuid });
    expect(st.get('EPHEMERAL')!.spec.parentLocation).toBe(sys.path);

    // mounted inside EPHEMERAL's filesystem, which the Boot sequence's request mounted at <root>/var
    const varDir = join(n.root, 'var');
    const dataDir = join(varDir, 'mnt/data');
    const scratchDir = join(varDir, 'mnt/scratch');
    for (const [id, target] of [
      ['u-data', dataDir],
      ['u-scratch', scratchDir],
    ] as const)
      await assertResource(n.state, VolumeMountStatus, id, (r) => expect(r.spec.target).toBe(target), {
        namespace: BLOCK_NAMESPACE,
        signal,
        ...WAIT,
      });
    const info = readMountInfo();
    const varMount = info.filter((m) => m.mountPoint === varDir).at(-1)!;
    const dataMount = info.filter((m) => m.mountPoint === dataDir).at(-1)!;
    expect([varMount.source, dataMount.source, dataMount.parentId]).toEqual([
      st.get('EPHEMERAL')!.spec.location,
      data.location,
      varMount.id,
    ]);
    // the directory volume is a directory on EPHEMERAL, not a mount
    expect(statSync(scratchDir).dev).toBe(statSync(varDir).dev);
    expect(mountedAt(scratchDir)).toBeUndefined();
    writeFileSync(join(dataDir, 'kept'), 'on the user volume');

    // dropped from the config: unmounted and forgotten, the partition and its data stay
    await n.configure(cfg());
    for (const t of [VolumeMountStatus, VolumeStatus] as const)
      await assertNoResource(n.state, t, 'u-data', { namespace: BLOCK_NAMESPACE, signal, ...WAIT });
    await assertNoResource(n.state, VolumeConfig, 'u-data', { signal });
    expect(mountedAt(dataDir)).toBeUndefined();
    expect(mountedAt(varDir)?.source).toBe(st.get('EPHEMERAL')!.spec.location);
    expect(blkid(data.location)).toMatchObject({ TYPE: 'xfs', PART_ENTRY_NAME: 'u-data', UUID: data.uuid });
    const check = join(n.root, 'check');
    mkdirSync(check);
    execFileSync('mount', ['-o', 'ro', data.location, check]);
    try {
      expect(readFileSync(join(check, 'kept'), 'utf8')).toBe('on the user volume');
    } finally {
      execFileSync('umount', [check]);
    }
  });

  it('puts a user volume in the room an EPHEMERAL with a maxSize leaves on the system disk', {
    timeout: 120_000,
  }, async ({ signal }) => {
    const sys = await installerDisk(4 * GiB);
    const n = node();
    await discover(n.state, sys);
    await n.configure(cfg(ephemeralMax('2GiB'), user('data', 'system_disk', { minSize: '1GiB' })));
    const st = await assertResources(n.state, VolumeStatus, ['STATE', 'EPHEMERAL', 'u-data'], ready, {
      signal,
      ...WAIT,
    });
    // EPHEMERAL stops at its maxSize (it grows no further), and the user volume takes the rest
    expect(st.get('EPHEMERAL')!.spec.size).toBe(2 * GiB);
    const data = st.get('u-data')!.spec;
    expect([data.location, data.parentLocation]).toEqual([`${sys.path}p4`, sys.path]);
    expect(data.size).toBeGreaterThan(4 * GiB - 2 * GiB - 100 * MiB - 4 * MiB);
    expect(await partitionNames(sys.fd)).toEqual(['META', 'STATE', 'EPHEMERAL', 'u-data']);
    expect(blkid(data.location)).toMatchObject({ TYPE: 'xfs', PART_ENTRY_NAME: 'u-data' });
  });

  it('provisions user volumes only once the system disk wave is declared and done', {
    timeout: 120_000,
  }, async ({ signal }) => {
    const sys = await installerDisk(3 * GiB);
    const second = blankDisk(GiB);
    // no system volumes' controller: until their VolumeConfigs appear, the user volume must wait
    const n = node([userVolumeConfigController(), volumeManagerController({ retryMs: 200 })]);
    await discover(n.state, sys, { done: false });
    await discover(n.state, second, { system: false });
    const config = cfg(user('data', '!system_disk', { minSize: '500MiB' }));
    await n.configure(config);
    await assertResource(
      n.state,
      VolumeStatus,
      'u-data',
      (r) => expect(r.spec.phase).toBe(VolumePhase.Waiting),
      {
        signal,
        ...WAIT,
      },
    );
    expect(blkid(second.path)).toEqual({});

    for (const [id, spec] of systemVolumes(config))
      await n.state.create(VolumeConfig.new(BLOCK_NAMESPACE, id, spec));
    const st = await assertResources(n.state, VolumeStatus, ['EPHEMERAL', 'u-data'], ready, {
      signal,
      ...WAIT,
    });
    expect(st.get('u-data')!.spec.location).toBe(`${second.path}p1`);
  });

  it('partitions a raw volume, leaves it unformatted and never mounts it', { timeout: 120_000 }, async ({
    signal,
  }) => {
    const sys = await installerDisk(4 * GiB);
    const n = node();
    await discover(n.state, sys);
    await n.askForEphemeral();
    await n.configure(
      cfg(
        ephemeralMax('2GiB'),
        doc('RawVolumeConfig', 'osd', {
          provisioning: { diskSelector: { match: 'system_disk' }, minSize: '500MiB', maxSize: '1GiB' },
        }),
      ),
    );
    const st = await assertResources(n.state, VolumeStatus, ['EPHEMERAL', 'r-osd'], ready, {
      signal,
      ...WAIT,
    });
    const osd = st.get('r-osd')!.spec;
    expect([osd.location, osd.size, osd.filesystem]).toEqual([`${sys.path}p4`, GiB, FilesystemType.None]);
    const facts = blkid(osd.location);
    expect(facts.PART_ENTRY_NAME).toBe('r-osd');
    expect(facts.TYPE).toBeUndefined();
    await assertResource(n.state, VolumeMountStatus, 'sequencer-EPHEMERAL', () => {}, {
      namespace: BLOCK_NAMESPACE,
      signal,
      ...WAIT,
    });
    expect(
      await n.state.get(VolumeMountRequest.pointer('r-osd', BLOCK_NAMESPACE)).catch(() => null),
    ).toBeNull();
    expect(readMountInfo().filter((m) => m.source === osd.location)).toEqual([]);
  });

  it('fails a volume the disk is too small for, or whose filesystem it cannot make, and leaves the disk', {
    timeout: 120_000,
  }, async ({ signal }) => {
    const sys = await installerDisk(3 * GiB);
    const second = blankDisk(GiB);
    const n = node();
    await discover(n.state, sys, { done: false });
    await discover(n.state, second, { system: false });
    await n.configure(
      cfg(
        user('big', '!system_disk', { minSize: '2GiB' }),
        user('logs', '!system_disk', { minSize: '100MiB' }, { filesystem: { type: 'ext4' } }),
      ),
    );
    const failed = await assertResources(
      n.state,
      VolumeStatus,
      ['u-big', 'u-logs'],
      (r) => expect(r.spec.phase).toBe(VolumePhase.Failed),
      { signal, ...WAIT },
    );
    expect(failed.get('u-big')!.spec.errorMessage).toMatch(
      new RegExp(
        `^volume u-big needs ${2 * GiB} bytes on ${second.path}, the largest free space is \\d+ bytes$`,
      ),
    );
    expect(failed.get('u-logs')!.spec.errorMessage).toBe(
      'volume u-logs: making ext4 filesystems is not supported (only xfs)',
    );
    expect(blkid(second.path)).toEqual({});
  });
});
