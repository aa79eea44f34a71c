// The volumes' lifecycle as the node drives it: the VolumeLifecycle is made before the block controllers
// start, and torn down before the node wipes a disk or powers down. The volume manager holds a finalizer on
// it while it may write to a disk, so a reboot never cuts a new partition table or a mkfs in half (the
// next boot would find a filesystem marked as still being made, and refuse to mount it).
import { BLOCK_NAMESPACE, VOLUME_LIFECYCLE_ID, VolumeLifecycle } from '../../../resources/block/index.js';
import type { State } from '../../cosi/state/state.js';

const pointer = () => VolumeLifecycle.pointer(VOLUME_LIFECYCLE_ID, BLOCK_NAMESPACE);

/** openVolumeLifecycle makes the lifecycle, running, unless it is there already. */
export async function openVolumeLifecycle(state: State): Promise<void> {
  if (await state.get(pointer()).catch(() => undefined)) return;
  await state.create(VolumeLifecycle.new(BLOCK_NAMESPACE, VOLUME_LIFECYCLE_ID));
}

/**
 * teardownVolumeLifecycle moves the lifecycle to tearingDown and waits, until the signal ends the wait,
 * for its holders to let go: after that no controller starts disk work. It stays torn down (never
 * destroyed) until the node goes down, so nothing takes it up again. Idempotent; without a lifecycle
 * (container mode) there is nothing to wait for.
 */
export async function teardownVolumeLifecycle(
  state: State,
  opts: { readonly signal: AbortSignal; readonly log: (line: string) => void },
): Promise<void> {
  const existing = await state.get(pointer()).catch(() => undefined);
  if (!existing) return;
  if (await state.teardown(pointer())) return;
  opts.log('volumes: waiting for disk work under way to finish');
  await state.watchFor(pointer(), { signal: opts.signal, finalizersEmpty: true });
  opts.log('volumes: lifecycle torn down');
}
