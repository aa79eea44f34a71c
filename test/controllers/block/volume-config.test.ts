// VolumeConfigController: the system volumes from defaults and the machine config.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  EPHEMERAL_MIN_SIZE,
  META_LOCATOR,
  parseMaxSize,
  STATE_SIZE,
  systemVolumes,
  volumeConfigController,
} from '../../../controllers/block/volume-config.js';
import { FilesystemType, SYSTEM_VOLUME_LABEL, VolumeConfig } from '../../../resources/block/index.js';
import { MachineConfig, type MachineConfigSpec } from '../../../resources/config/index.js';
import { assertResource, assertResources } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const cfg = (...extra: { kind: string; name?: string; spec: object }[]): MachineConfigSpec =>
  ({
    documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine: { type: 'worker' } } }, ...extra],
  }) as unknown as MachineConfigSpec;

describe('systemVolumes', () => {
  it('is META and a formatted STATE only, without a config', () => {
    const v = new Map(systemVolumes(undefined));
    expect([...v.keys()]).toEqual(['META', 'STATE']);
    expect(v.get('META')?.locator.match).toBe(META_LOCATOR);
    expect(v.get('STATE')?.locator.match).toBe("volume.partition_label == 'STATE' && volume.name != ''");
    expect(v.get('STATE')?.provisioning.partitionSpec.minSize).toBe(0);
    expect(new Map(systemVolumes(undefined, { metalAgent: true })).get('STATE')?.locator.match).toBe('false');
  });

  it('provisions STATE (100 MiB) and a growing EPHEMERAL on the system disk with a config', () => {
    const v = new Map(systemVolumes(cfg()));
    expect([...v.keys()]).toEqual(['META', 'STATE', 'EPHEMERAL']);
    const state = v.get('STATE')!;
    expect(state.locator.match).toBe("volume.partition_label == 'STATE'");
    expect(state.provisioning.wave).toBe(-1);
    expect(state.provisioning.diskSelector.match).toBe('system_disk');
    expect(state.provisioning.partitionSpec).toMatchObject({
      minSize: STATE_SIZE,
      maxSize: STATE_SIZE,
      grow: false,
    });
    expect(state.provisioning.filesystemSpec).toEqual({ type: FilesystemType.XFS, label: 'STATE' });
    const eph = v.get('EPHEMERAL')!;
    expect(eph.provisioning.partitionSpec).toMatchObject({
      minSize: EPHEMERAL_MIN_SIZE,
      maxSize: 0,
      grow: true,
    });
    expect(eph.mount.targetPath).toBe('/var');
  });

  it('honours the EPHEMERAL VolumeConfig document', () => {
    const v = new Map(
      systemVolumes(
        cfg({
          kind: 'VolumeConfig',
          name: 'EPHEMERAL',
          spec: {
            name: 'EPHEMERAL',
            provisioning: {
              diskSelector: { match: "disk.transport == 'nvme'" },
              minSize: '4GiB',
              maxSize: '40GiB',
              grow: false,
            },
          },
        }),
      ),
    );
    expect(v.get('EPHEMERAL')?.provisioning.diskSelector.match).toBe("disk.transport == 'nvme'");
    expect(v.get('EPHEMERAL')?.provisioning.partitionSpec).toMatchObject({
      minSize: 4 * 2 ** 30,
      maxSize: 40 * 2 ** 30,
      grow: false,
    });
  });

  it.each([
    ['10GiB', { maxSize: 10 * 2 ** 30, relativeMaxSize: 0, negativeMaxSize: false }],
    ['80%', { maxSize: 0, relativeMaxSize: 80, negativeMaxSize: false }],
    ['-5GB', { maxSize: 5e9, relativeMaxSize: 0, negativeMaxSize: true }],
    [undefined, { maxSize: 0, relativeMaxSize: 0, negativeMaxSize: false }],
  ])('reads maxSize %s', (text, want) => {
    expect(parseMaxSize(text)).toEqual(want);
  });
});

describe('block.VolumeConfigController', () => {
  it('writes META and STATE, then EPHEMERAL once a config arrives', async ({ signal }) => {
    const env = startRuntime([volumeConfigController()]);
    onTestFinished(env.stop);
    await assertResources(
      env.state,
      VolumeConfig,
      ['META', 'STATE'],
      (r) => expect(r.metadata.labels.get(SYSTEM_VOLUME_LABEL)).toBe(''),
      { signal },
    );
    await env.state.create(MachineConfig.new('config', 'v1alpha1', cfg()));
    const eph = await assertResource(
      env.state,
      VolumeConfig,
      'EPHEMERAL',
      (r) => expect(r.spec.provisioning.partitionSpec.grow).toBe(true),
      { signal },
    );
    expect(eph.metadata.owner).toBe('block.VolumeConfigController');
    await assertResource(
      env.state,
      VolumeConfig,
      'STATE',
      (r) => expect(r.spec.provisioning.partitionSpec.minSize).toBe(STATE_SIZE),
      { signal },
    );
  });
});
