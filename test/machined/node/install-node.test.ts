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
