// block.MountController: the plan (pure) and real mounts of a real xfs on a loop device — mounted at the
// volume's path once the volume is Ready and a request asks for it, shared by two requests, read-only only
// when every request says so, and unmounted once the last request goes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MOUNT_CONTROLLER, mountController, planMounts } from '../../../controllers/block/mount.js';
import {
  BLOCK_NAMESPACE,
  FilesystemType,
  VolumeMountRequest,
  type VolumeMountRequestSpec,
  VolumeMountStatus,
  VolumePhase,
  VolumeStatus,
  type VolumeStatusSpec,
  zeroVolumeStatus,
} from '../../../resources/block/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { mountedAt } from '../../../src/sys/block/volume-mount.js';
import { attachLoop, sparseImage } from '../../sys/block/gpt/loop-device.js';
import { startRuntime } from '../secrets/env.js';

const ready = (over: Partial<VolumeStatusSpec> = {}): VolumeStatusSpec => ({
  ...zeroVolumeStatus(),
  phase: VolumePhase.Ready,
  location: '/dev/vda5',
  mountLocation: '/dev/vda5',
  filesystem: FilesystemType.XFS,
  ...over,
  mountSpec: { ...zeroVolumeStatus().mountSpec, targetPath: '/var', ...over.mountSpec },
});
const req = (id: string, volumeID: string, over: Partial<VolumeMountRequestSpec> = {}) => ({
  id,
  spec: { volumeID, requester: id, readOnly: false, detached: false, ...over },
});

describe('planMounts', () => {
  it('mounts Ready volumes at their path, once for all their requests', () => {
    const plans = planMounts(
      [req('a', 'EPHEMERAL'), req('b', 'EPHEMERAL', { readOnly: true }), req('c', 'STATE')],
      new Map([
        ['EPHEMERAL', ready()],
        ['STATE', { ...ready(), phase: VolumePhase.Provisioned }],
      ]),
      '/run/v',
    );
    expect(plans).toHaveLength(1);
    expect(plans[0]!.mount).toMatchObject({
      source: '/dev/vda5',
      target: '/var',
      fstype: 'xfs',
      readOnly: false,
    });
    expect(plans[0]!.requests.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('is read-only when every request is, and detached under the root without a path', () => {
    const [p] = planMounts(
      [req('a', 'STATE', { readOnly: true, detached: true })],
      new Map([
        ['STATE', ready({ mountSpec: { ...zeroVolumeStatus().mountSpec, targetPath: '/system/state' } })],
      ]),
      '/run/v',
    );
    expect(p!.mount).toMatchObject({ target: '/run/v/STATE', readOnly: true });
  });

  it('waits for volumes that have no status or nothing to mount', () => {
    expect(planMounts([req('a', 'X')], new Map(), '/r')).toEqual([]);
    expect(planMounts([req('a', 'X')], new Map([['X', ready({ mountLocation: '' })]]), '/r')).toEqual([]);
  });
});

describe('block.MountController on a loop device', () => {
  it('mounts a Ready xfs volume for its requests and unmounts it when they go', async () => {
    if (process.getuid?.() !== 0) throw new Error('needs root: loop devices and mount');
    const loop = attachLoop(sparseImage(300 * 2 ** 20));
    execFileSync('mkfs.xfs', ['-q', '-f', loop.path]);
    const dir = mkdtempSync(join(tmpdir(), 'keel-mount-'));
    const target = join(dir, 'var');
    onTestFinished(() => {
      if (mountedAt(target)) execFileSync('umount', ['-l', target]);
      rmSync(dir, { recursive: true, force: true });
    });

    const env = startRuntime([mountController({ detachedRoot: join(dir, 'detached') })]);
    onTestFinished(env.stop);
    await env.state.create(
      VolumeStatus.new(
        BLOCK_NAMESPACE,
        'EPHEMERAL',
        ready({
          location: loop.path,
          mountLocation: loop.path,
          mountSpec: { ...zeroVolumeStatus().mountSpec, targetPath: target, fileMode: 0o755 },
        }),
      ),
    );
    for (const r of [req('sequencer', 'EPHEMERAL'), req('other', 'EPHEMERAL', { readOnly: true })])
      await env.state.create(VolumeMountRequest.new(BLOCK_NAMESPACE, r.id, r.spec));

    for (const id of ['sequencer', 'other'])
      await assertResource(
        env.state,
        VolumeMountStatus,
        id,
        (s) => {
          expect(s.metadata.owner).toBe(MOUNT_CONTROLLER);
          expect(s.spec).toMatchObject({ volumeID: 'EPHEMERAL', target, readOnly: false });
        },
        { namespace: BLOCK_NAMESPACE, timeoutMs: 20_000 },
      );
    expect(mountedAt(target)).toEqual({ source: loop.path, readOnly: false });
    writeFileSync(join(target, 'kept'), 'on the volume');

    await env.state.destroy(VolumeMountRequest.pointer('other', BLOCK_NAMESPACE));
    await assertNoResource(env.state, VolumeMountStatus, 'other', {
      namespace: BLOCK_NAMESPACE,
      timeoutMs: 20_000,
    });
    expect(mountedAt(target)).toBeDefined();

    await env.state.destroy(VolumeMountRequest.pointer('sequencer', BLOCK_NAMESPACE));
    await assertNoResource(env.state, VolumeMountStatus, 'sequencer', {
      namespace: BLOCK_NAMESPACE,
      timeoutMs: 20_000,
    });
    expect(mountedAt(target)).toBeUndefined();
    expect(existsSync(join(target, 'kept'))).toBe(false);

    // the data stayed on the volume: mounted again elsewhere, it is there
    const check = join(dir, 'check');
    execFileSync('mkdir', ['-p', check]);
    execFileSync('mount', ['-o', 'ro', loop.path, check]);
    try {
      expect(readFileSync(join(check, 'kept'), 'utf8')).toBe('on the volume');
    } finally {
      execFileSync('umount', [check]);
    }
  });
});
