// installInputs reads the block resources once discovery has settled: the system disk, the disks, and the
// boot medium (the iso9660 volume labelled KEEL).
import { describe, expect, it } from 'vitest';
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  DiscoveredVolumesStatus,
  Disk,
  registerBlockResources,
  SYSTEM_DISK_ID,
  SystemDisk,
} from '../../../resources/block/index.js';
import type { Config } from '../../../src/config/index.js';
import { registerDefault, registerNamespace } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { installIfAsked, installInputs } from '../../../src/machined/node/install-node.js';

async function newState(): Promise<State> {
  const state = wrapCore(newInmemState());
  await registerDefault(state);
  await registerNamespace(state, BLOCK_NAMESPACE, 'runtime');
  await registerBlockResources(state);
  return state;
}

const cfg = { documents: [] } as unknown as Config;

async function withDiscovery(state: State, ready: boolean): Promise<void> {
  await state.modify(DiscoveredVolumesStatus.new(BLOCK_NAMESPACE, DISCOVERED_VOLUMES_STATUS_ID), (r) => {
    r.spec = { ready };
  });
}

describe('installInputs', () => {
  it('waits for discovery, then names the disks and the KEEL iso9660 as the medium', async () => {
    const state = await newState();
    for (const id of ['vda', 'sr0']) await state.modify(Disk.new(BLOCK_NAMESPACE, id), () => {});
    await state.modify(DiscoveredVolume.new(BLOCK_NAMESPACE, 'sr0'), (r) => {
      r.spec = { ...r.spec, devPath: '/dev/sr0', type: 'disk', name: 'iso9660', label: 'KEEL' };
    });
    await withDiscovery(state, false);
    const pending = installInputs(state, cfg, AbortSignal.timeout(5_000));
    await withDiscovery(state, true);
    const got = await pending;
    expect(got).toMatchObject({
      systemDisk: undefined,
      disks: ['/dev/sr0', '/dev/vda'],
      medium: { devPath: '/dev/sr0', disk: '/dev/sr0' },
    });
    await state.modify(SystemDisk.new(BLOCK_NAMESPACE, SYSTEM_DISK_ID), (r) => {
      r.spec = { diskID: 'vda', devPath: '/dev/vda' };
    });
    expect((await installInputs(state, cfg, AbortSignal.timeout(5_000))).systemDisk).toBe('/dev/vda');
  });

  it('evaluates machine.install.diskSelector on the disks, leaving the boot medium out', async () => {
    const state = await newState();
    const GB = 1_000_000_000;
    const disks = [
      {
        id: 'sr0',
        devPath: '/dev/sr0',
        size: 90_000_000,
        cdrom: true,
        readonly: true,
        transport: 'ata',
        model: 'QEMU DVD-ROM',
      },
      { id: 'vda', devPath: '/dev/vda', size: 6 * GB, transport: 'virtio', rotational: true, model: '' },
      { id: 'nvme0n1', devPath: '/dev/nvme0n1', size: 20 * GB, transport: 'nvme', model: 'QEMU NVMe Ctrl' },
      { id: 'sda', devPath: '/dev/sda', size: 40 * GB, transport: 'usb', model: 'KEEL USB' },
    ];
    for (const { id, ...d } of disks)
      await state.modify(Disk.new(BLOCK_NAMESPACE, id), (r) => {
        Object.assign(r.spec, d);
      });
    await state.modify(DiscoveredVolume.new(BLOCK_NAMESPACE, 'sda'), (r) => {
      r.spec = { ...r.spec, devPath: '/dev/sda', type: 'disk', name: 'iso9660', label: 'KEEL' };
    });
    await withDiscovery(state, true);
    const select = async (diskSelector: object) =>
      (
        await installInputs(
          state,
          {
            documents: [{ kind: 'v1alpha1', spec: { machine: { install: { diskSelector } } } }],
          } as unknown as Config,
          AbortSignal.timeout(5_000),
        )
      ).selected;
    expect(await select({ type: 'nvme' })).toEqual({ disk: '/dev/nvme0n1' });
    expect(await select({ size: '>= 5GB' })).toEqual({ disk: '/dev/nvme0n1' }); // device order, medium left out
    expect(await select({ size: '<= 10GB', type: 'hdd' })).toEqual({ disk: '/dev/vda' });
    expect(await select({ model: 'QEMU NVMe*' })).toEqual({ disk: '/dev/nvme0n1' });
    expect(await select({ model: 'KEEL*' })).toEqual({ disk: undefined }); // only the medium matches
    expect(await select({ size: '>= 1TB' })).toEqual({ disk: undefined });
    expect(await select({ type: 'floppy' })).toEqual({
      error: 'machine.install.diskSelector.type: unsupported disk type "floppy"',
    });
  });

  it('installIfAsked logs why nothing was installed and never runs the sequence then', async () => {
    const state = await newState();
    await withDiscovery(state, true);
    const log: string[] = [];
    let ran = false;
    const installed = await installIfAsked({
      state,
      cfg,
      run: async () => {
        ran = true;
      },
      log: (l) => log.push(l),
      signal: AbortSignal.timeout(5_000),
    });
    expect({ installed, ran }).toEqual({ installed: false, ran: false });
    expect(log).toEqual(['install: not needed: the config has no machine.install disk']);
  });
});
