// The volume lifecycle on real loop disks: torn down while the volume manager is partitioning and making
// filesystems, the teardown waits for that work to end (both filesystems whole afterwards); torn down
// first, no disk is written at all.
import { readdirSync, readlinkSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { volumeConfigController } from '../../../controllers/block/volume-config.js';
import {
  VOLUME_MANAGER_CONTROLLER,
  volumeManagerController,
} from '../../../controllers/block/volume-manager.js';
import {
  BLOCK_NAMESPACE,
  VOLUME_LIFECYCLE_ID,
  VolumeLifecycle,
  VolumePhase,
  VolumeStatus,
} from '../../../resources/block/index.js';
import { MachineConfig, type MachineConfigSpec } from '../../../resources/config/index.js';
import { openVolumeLifecycle, teardownVolumeLifecycle } from '../../../src/machined/node/volume-lifecycle.js';
import {
  closeBlockDevice,
  lockDisk,
  openBlockDevice,
  unlockDisk,
} from '../../../src/sys/block/devices/index.js';
import { readGpt } from '../../../src/sys/block/gpt/index.js';
import { blkid, discover, GiB, installerDisk } from '../../controllers/block/volume-disks.js';
import { startRuntime } from '../../controllers/secrets/env.js';

const config = {
  documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine: { type: 'worker' } } }],
} as unknown as MachineConfigSpec;

const lifecycle = VolumeLifecycle.pointer(VOLUME_LIFECYCLE_ID, BLOCK_NAMESPACE);

async function node() {
  const env = startRuntime([volumeConfigController(), volumeManagerController({ retryMs: 200 })]);
  onTestFinished(env.stop);
  await openVolumeLifecycle(env.state);
  await openVolumeLifecycle(env.state); // a second open keeps the one there
  return env;
}

/** opened counts this process's descriptors of a device: the manager opens the disk to write to it. */
const opened = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed meanwhile
    }
  }).length;

const partitionNames = async (fd: number) => (await readGpt(fd)).table.partitions.map((p) => p.name);

describe('volume lifecycle', () => {
  it('teardown waits for the disk work under way, which ends whole', { timeout: 120_000 }, async ({
    signal,
  }) => {
    const loop = await installerDisk(3 * GiB);
    const env = await node();
    await env.state.watchFor(lifecycle, {
      signal,
      condition: (r) => r.metadata.finalizers.has(VOLUME_MANAGER_CONTROLLER),
    });
    // a shared hold of the disk, as a probe takes it: the manager's pass blocks on its exclusive lock
    const held = openBlockDevice(loop.path);
    onTestFinished(() => closeBlockDevice(held));
    await lockDisk(held, 'shared');
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    // the test's two descriptors, then the manager's, waiting for the lock in the pass that makes STATE
    while (opened(loop.path) < 3) await delay(10, undefined, { signal });
    const lines: string[] = [];
    let torn = false;
    const teardown = teardownVolumeLifecycle(env.state, { signal, log: (l) => lines.push(l) }).then(() => {
      torn = true;
    });
    await delay(300);
    expect(torn).toBe(false); // the pass is still waiting for the disk
    expect(lines).toEqual(['volumes: waiting for disk work under way to finish']);
    unlockDisk(held);
    await teardown;
    // the pass ran to its end: both partitions made and their filesystems whole, nothing left half-made
    expect(await partitionNames(loop.fd)).toEqual(['META', 'STATE', 'EPHEMERAL']);
    expect(blkid(`${loop.path}p2`)).toMatchObject({ TYPE: 'xfs', LABEL: 'STATE' });
    expect(blkid(`${loop.path}p3`)).toMatchObject({ TYPE: 'xfs', LABEL: 'EPHEMERAL' });
    const r = await env.state.get(lifecycle);
    expect([r.metadata.phase, r.metadata.finalizers.list()]).toEqual(['tearingDown', []]);
    // torn down again: nothing to wait for
    await teardownVolumeLifecycle(env.state, { signal, log: (l) => lines.push(l) });
    expect(lines).toHaveLength(2);
  });

  it('once torn down, no disk is written', { timeout: 60_000 }, async ({ signal }) => {
    const loop = await installerDisk(3 * GiB);
    const env = await node();
    await env.state.watchFor(lifecycle, {
      signal,
      condition: (r) => r.metadata.finalizers.has(VOLUME_MANAGER_CONTROLLER),
    });
    await teardownVolumeLifecycle(env.state, { signal, log: () => {} });
    await discover(env.state, loop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', config));
    await delay(1_000); // time for passes that would have partitioned the disk
    expect(await partitionNames(loop.fd)).toEqual(['META']);
    // STATE stays as the pass before the teardown left it: not there to be found
    const st = await env.state.get(VolumeStatus.pointer('STATE', BLOCK_NAMESPACE));
    expect((st as VolumeStatus).spec.phase).not.toBe(VolumePhase.Ready);
  });
});
