// UserVolumeConfigController: the pure transform of UserVolumeConfig and RawVolumeConfig documents into
// VolumeConfigs (upstream's ids, labels, locators and wave), and the runtime writing and dropping them with
// their mount requests.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  MIN_USER_VOLUME_SIZE,
  USER_VOLUME_CONTROLLER,
  userVolumeConfigController,
  userVolumes,
} from '../../../controllers/block/user-volume-config.js';
import { LINUX_FILESYSTEM_DATA, volumeConfigController } from '../../../controllers/block/volume-config.js';
import {
  FilesystemType,
  RAW_VOLUME_LABEL,
  USER_VOLUME_LABEL,
  VolumeConfig,
  VolumeMountRequest,
  VolumeType,
  WAVE_SYSTEM_DISK,
  WAVE_USER_VOLUMES,
} from '../../../resources/block/index.js';
import { MachineConfig, type MachineConfigSpec } from '../../../resources/config/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

type Doc = { kind: string; name?: string; spec: object };
const cfg = (...extra: Doc[]): MachineConfigSpec =>
  ({
    documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine: { type: 'worker' } } }, ...extra],
  }) as unknown as MachineConfigSpec;
const user = (name: string, spec: object = {}): Doc => ({
  kind: 'UserVolumeConfig',
  name,
  spec: {
    name,
    provisioning: { diskSelector: { match: '!system_disk' }, minSize: '1GiB' },
    ...spec,
  },
});
const raw = (name: string, spec: object = {}): Doc => ({
  kind: 'RawVolumeConfig',
  name,
  spec: {
    name,
    provisioning: { diskSelector: { match: 'disk.size > 10u * GiB' }, maxSize: '5GiB' },
    ...spec,
  },
});

describe('userVolumes', () => {
  it('makes u-<name> a labelled partition on the selected disk, mounted at /var/mnt/<name> in EPHEMERAL', () => {
    const { volumes, refused } = userVolumes(
      cfg(
        user('data', {
          provisioning: {
            diskSelector: { match: '!system_disk' },
            minSize: '1GiB',
            maxSize: '4GiB',
            grow: true,
          },
        }),
      ),
    );
    expect(refused).toEqual([]);
    expect(volumes).toHaveLength(1);
    const v = volumes[0]!;
    expect([v.id, v.label, v.mount]).toEqual(['u-data', USER_VOLUME_LABEL, true]);
    expect(v.spec.type).toBe(VolumeType.Partition);
    expect(v.spec.parentId).toBe('');
    expect(v.spec.locator.match).toBe("volume.partition_label == 'u-data'");
    expect(v.spec.provisioning).toEqual({
      wave: WAVE_USER_VOLUMES,
      diskSelector: { match: '!system_disk' },
      partitionSpec: {
        minSize: GiB,
        maxSize: 4 * GiB,
        relativeMaxSize: 0,
        negativeMaxSize: false,
        grow: true,
        label: 'u-data',
        typeUUID: LINUX_FILESYSTEM_DATA,
      },
      filesystemSpec: { type: FilesystemType.XFS, label: '' },
    });
    expect(v.spec.mount).toMatchObject({
      targetPath: '/var/mnt/data',
      parentId: 'EPHEMERAL',
      fileMode: 0o755,
    });
  });

  it('provisions user volumes in a wave after the system disk', () => {
    expect(WAVE_USER_VOLUMES).toBeGreaterThan(WAVE_SYSTEM_DISK);
  });

  it('defaults minSize to 100 MiB, reads relative sizes, and keeps ext4 for the manager to refuse', () => {
    const [v] = userVolumes(
      cfg(
        user('logs', {
          provisioning: { diskSelector: { match: 'system_disk' }, maxSize: '50%' },
          filesystem: { type: 'ext4' },
        }),
      ),
    ).volumes;
    expect(v!.spec.provisioning.partitionSpec).toMatchObject({
      minSize: MIN_USER_VOLUME_SIZE,
      maxSize: 0,
      relativeMaxSize: 50,
      grow: false,
    });
    expect(MIN_USER_VOLUME_SIZE).toBe(100 * MiB);
    expect(v!.spec.provisioning.filesystemSpec.type).toBe(FilesystemType.EXT4);
  });

  it('makes a directory volume: a directory at /var/mnt/<name>, nothing to provision', () => {
    const [v] = userVolumes(
      cfg({ kind: 'UserVolumeConfig', name: 'scratch', spec: { name: 'scratch', volumeType: 'directory' } }),
    ).volumes;
    expect(v!.id).toBe('u-scratch');
    expect(v!.spec.type).toBe(VolumeType.Directory);
    expect(v!.spec.locator.match).toBe('');
    expect(v!.spec.provisioning.diskSelector.match).toBe('');
    expect(v!.spec.mount).toMatchObject({ targetPath: '/var/mnt/scratch', parentId: 'EPHEMERAL' });
    expect(v!.mount).toBe(true);
  });

  it('makes r-<name> an unformatted partition that is never mounted', () => {
    const [v] = userVolumes(cfg(raw('osd'))).volumes;
    expect([v!.id, v!.label, v!.mount]).toEqual(['r-osd', RAW_VOLUME_LABEL, false]);
    expect(v!.spec.locator.match).toBe("volume.partition_label == 'r-osd'");
    expect(v!.spec.provisioning.diskSelector.match).toBe('disk.size > 10u * GiB');
    expect(v!.spec.provisioning.partitionSpec).toMatchObject({
      minSize: MIN_USER_VOLUME_SIZE,
      maxSize: 5 * GiB,
      label: 'r-osd',
    });
    expect(v!.spec.provisioning.filesystemSpec.type).toBe(FilesystemType.None);
    expect(v!.spec.mount.targetPath).toBe('');
  });

  it('refuses what cannot be made yet, naming the field, and makes the rest', () => {
    const luks = { provider: 'luks2', keys: [{ slot: 0, nodeID: {} }] };
    const { volumes, refused } = userVolumes(
      cfg(
        user('secret', { encryption: luks }),
        user('whole', { volumeType: 'disk' }),
        raw('sealed', { encryption: luks }),
        user('ok'),
      ),
    );
    expect(volumes.map((v) => v.id)).toEqual(['u-ok']);
    expect(refused.map((r) => r.id)).toEqual(['u-secret', 'u-whole', 'r-sealed']);
    expect(refused[0]!.reason).toMatch(/^encryption: volume encryption is not supported yet/);
    expect(refused[1]!.reason).toMatch(/^volumeType: "disk" volumes are not supported yet/);
  });

  it('is nothing without a config', () => {
    expect(userVolumes(undefined)).toEqual({ volumes: [], refused: [] });
  });
});

describe('block.UserVolumeConfigController', () => {
  it('writes VolumeConfigs and mount requests, and drops them with their documents', async ({ signal }) => {
    // the system volumes' controller shares the VolumeConfig output: neither touches the other's
    const env = startRuntime([volumeConfigController(), userVolumeConfigController()]);
    onTestFinished(env.stop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', cfg(user('data'), raw('osd'))));
    for (const id of ['u-data', 'r-osd'])
      await assertResource(
        env.state,
        VolumeConfig,
        id,
        (r) => {
          expect(r.metadata.owner).toBe(USER_VOLUME_CONTROLLER);
          expect(r.metadata.labels.get(id === 'u-data' ? USER_VOLUME_LABEL : RAW_VOLUME_LABEL)).toBe('');
        },
        { signal },
      );
    const req = await assertResource(
      env.state,
      VolumeMountRequest,
      'u-data',
      (r) =>
        expect(r.spec).toEqual({
          volumeID: 'u-data',
          requester: USER_VOLUME_CONTROLLER,
          readOnly: false,
          detached: false,
        }),
      { signal },
    );
    expect(req.metadata.owner).toBe(USER_VOLUME_CONTROLLER);
    expect(req.metadata.labels.get(USER_VOLUME_LABEL)).toBe('');
    await assertResource(env.state, VolumeConfig, 'EPHEMERAL', () => {}, { signal });
    expect(await env.state.get(VolumeMountRequest.pointer('r-osd')).catch(() => null)).toBeNull();

    // the config drops u-data: its VolumeConfig and request go, r-osd and the system volumes stay
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = cfg(raw('osd'));
    });
    await assertNoResource(env.state, VolumeMountRequest, 'u-data', { signal });
    await assertNoResource(env.state, VolumeConfig, 'u-data', { signal });
    for (const id of ['r-osd', 'EPHEMERAL', 'STATE', 'META'])
      await assertResource(env.state, VolumeConfig, id, () => {}, { signal });
  });
});
