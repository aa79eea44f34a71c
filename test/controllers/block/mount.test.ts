// block.MountController: the plan (pure) and real mounts of a real xfs on a loop device — mounted at the
// volume's path once the volume is Ready and a request asks for it, shared by two requests, read-only only
// when every request says so, and unmounted once the last request goes. A volume inside another one (a
// user volume in EPHEMERAL) is mounted after its parent and unmounted before it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  depthOf,
  MOUNT_CONTROLLER,
  type Mounter,
  mountController,
  planMounts,
  unmountOrder,
} from '../../../controllers/block/mount.js';
import {
  BLOCK_NAMESPACE,
  FilesystemType,
  VolumeMountRequest,
  type VolumeMountRequestSpec,
  VolumeMountStatus,
  VolumePhase,
  VolumeStatus,
  type VolumeStatusSpec,
  VolumeType,
  zeroVolumeStatus,
} from '../../../resources/block/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { mountedAt, type VolumeMount } from '../../../src/sys/block/volume-mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';
import { attachLoop, type Loop, sparseImage } from '../../sys/block/gpt/loop-device.js';
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

// a user volume as UserVolumeConfigController asks for it: inside EPHEMERAL, at /var/mnt/<name>
const inEphemeral = (name: string, over: Partial<VolumeStatusSpec> = {}): VolumeStatusSpec =>
  ready({
    location: `/dev/vdb-${name}`,
    mountLocation: `/dev/vdb-${name}`,
    ...over,
    mountSpec: {
      ...zeroVolumeStatus().mountSpec,
      targetPath: `/var/mnt/${name}`,
      parentId: 'EPHEMERAL',
      fileMode: 0o755,
    },
  });

describe('planMounts with parents', () => {
  it('waits for the parent volume to be planned, then puts it first', () => {
    const statuses = new Map([
      ['u-data', inEphemeral('data')],
      ['EPHEMERAL', ready()],
    ]);
    expect(planMounts([req('u', 'u-data')], statuses, '/r')).toEqual([]);
    const plans = planMounts([req('u', 'u-data'), req('seq', 'EPHEMERAL')], statuses, '/r', '/tmp/root');
    expect(plans.map((p) => [p.volumeID, p.parentID, p.mount.target])).toEqual([
      ['EPHEMERAL', '', '/tmp/root/var'],
      ['u-data', 'EPHEMERAL', '/tmp/root/var/mnt/data'],
    ]);
    // nor is a child mounted in a parent that is not Ready yet
    const notYet = new Map([...statuses, ['EPHEMERAL', { ...ready(), phase: VolumePhase.Prepared }]]);
    expect(planMounts([req('u', 'u-data'), req('seq', 'EPHEMERAL')], notYet, '/r')).toEqual([]);
  });

  it('plans a directory volume as a directory to make, and never a raw volume', () => {
    const statuses = new Map([
      ['EPHEMERAL', ready()],
      ['u-dir', inEphemeral('dir', { type: VolumeType.Directory, location: '', mountLocation: '' })],
      ['r-osd', ready({ filesystem: FilesystemType.None })],
    ]);
    const plans = planMounts([req('seq', 'EPHEMERAL'), req('u', 'u-dir'), req('r', 'r-osd')], statuses, '/r');
    expect(plans.map((p) => [p.volumeID, p.kind, p.mount.target])).toEqual([
      ['EPHEMERAL', 'filesystem', '/var'],
      ['u-dir', 'directory', '/var/mnt/dir'],
    ]);
  });

  it('counts parents, refuses loops, and unmounts children first', () => {
    const parents: Record<string, string> = { a: '', b: 'a', c: 'b', x: 'y', y: 'x', o: 'gone' };
    const parent = (id: string) => parents[id];
    expect(['a', 'b', 'c', 'x', 'o'].map((id) => depthOf(id, parent))).toEqual([
      0,
      1,
      2,
      undefined,
      undefined,
    ]);
    expect(unmountOrder(['a', 'c', 'b'], parent)).toEqual(['c', 'b', 'a']);
  });
});

/** recorder is a Mounter that writes down what it is asked to do. */
function recorder(): Mounter & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    mount: (v: VolumeMount) => void calls.push(`mount ${v.target}`),
    unmount: (t: string) => void calls.push(`unmount ${t}`),
    directory: (v: VolumeMount) => void calls.push(`mkdir ${v.target}`),
    grow: async (v: VolumeMount) => void calls.push(`grow ${v.target}`),
  };
}
/** firsts keeps each call's first occurrence: passes repeat the (idempotent) mounts */
const firsts = (calls: readonly string[]) => [...new Set(calls)];

describe('block.MountController with a parent volume', () => {
  it('mounts a user volume only once EPHEMERAL is, and takes it down first', async ({ signal }) => {
    const m = recorder();
    const env = startRuntime([mountController({ mounter: m, rootPrefix: '/root' })]);
    onTestFinished(env.stop);
    const put = (id: string, st: VolumeStatusSpec) =>
      env.state.create(VolumeStatus.new(BLOCK_NAMESPACE, id, st));
    const ask = (r: ReturnType<typeof req>) =>
      env.state.create(VolumeMountRequest.new(BLOCK_NAMESPACE, r.id, r.spec));
    const mountedFor = (id: string) =>
      assertResource(env.state, VolumeMountStatus, id, () => {}, { namespace: BLOCK_NAMESPACE, signal });
    await put('EPHEMERAL', ready());
    await put('u-data', inEphemeral('data'));
    await put('u-dir', inEphemeral('dir', { type: VolumeType.Directory, location: '', mountLocation: '' }));
    await put('other', ready({ mountSpec: { ...zeroVolumeStatus().mountSpec, targetPath: '/other' } }));
    await ask(req('u-data', 'u-data'));
    await ask(req('u-dir', 'u-dir'));
    // a pass that mounts `other` has seen the user volumes' requests too, and left them waiting
    await ask(req('probe', 'other'));
    await mountedFor('probe');
    expect(firsts(m.calls)).toEqual(['mount /root/other', 'grow /root/other']);
    await assertNoResource(env.state, VolumeMountStatus, 'u-data', { namespace: BLOCK_NAMESPACE, signal });

    await ask(req('sequencer', 'EPHEMERAL'));
    const data = await mountedFor('u-data');
    expect(data.spec.target).toBe('/root/var/mnt/data');
    expect((await mountedFor('u-dir')).spec.target).toBe('/root/var/mnt/dir');
    // each filesystem grown once, just after it is mounted; a directory has nothing to grow
    expect(firsts(m.calls)).toEqual([
      'mount /root/other',
      'grow /root/other',
      'mount /root/var',
      'grow /root/var',
      'mount /root/var/mnt/data',
      'grow /root/var/mnt/data',
      'mkdir /root/var/mnt/dir',
    ]);
    expect(m.calls.filter((c) => c.startsWith('grow ')).length).toBe(3);

    // EPHEMERAL's request goes: the user volume is unmounted before it (the directory just stays)
    m.calls.length = 0;
    await env.state.destroy(VolumeMountRequest.pointer('sequencer', BLOCK_NAMESPACE));
    await assertNoResource(env.state, VolumeMountStatus, 'u-data', { namespace: BLOCK_NAMESPACE, signal });
    await assertNoResource(env.state, VolumeMountStatus, 'u-dir', { namespace: BLOCK_NAMESPACE, signal });
    expect(m.calls.filter((c) => c.startsWith('unmount'))).toEqual([
      'unmount /root/var/mnt/data',
      'unmount /root/var',
    ]);
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

describe('block.MountController on loop devices with a parent', () => {
  it('mounts a user volume inside the mounted EPHEMERAL, under a root prefix', async ({ signal }) => {
    if (process.getuid?.() !== 0) throw new Error('needs root: loop devices and mount');
    const xfs = (): Loop => {
      const loop = attachLoop(sparseImage(300 * 2 ** 20));
      execFileSync('mkfs.xfs', ['-q', '-f', loop.path]);
      return loop;
    };
    const eph = xfs();
    const data = xfs();
    const root = mkdtempSync(join(tmpdir(), 'keel-mount-'));
    const varDir = join(root, 'var');
    const dataDir = join(root, 'var/mnt/data');
    onTestFinished(() => {
      for (const t of [dataDir, varDir]) if (mountedAt(t)) execFileSync('umount', ['-l', t]);
      rmSync(root, { recursive: true, force: true });
    });

    const env = startRuntime([mountController({ rootPrefix: root, detachedRoot: join(root, 'detached') })]);
    onTestFinished(env.stop);
    const at = (l: Loop) => ({ location: l.path, mountLocation: l.path });
    await env.state.create(
      VolumeStatus.new(
        BLOCK_NAMESPACE,
        'EPHEMERAL',
        ready({
          ...at(eph),
          mountSpec: { ...zeroVolumeStatus().mountSpec, targetPath: '/var', fileMode: 0o755 },
        }),
      ),
    );
    await env.state.create(VolumeStatus.new(BLOCK_NAMESPACE, 'u-data', inEphemeral('data', at(data))));
    // the user volume is asked for first; it waits for EPHEMERAL
    for (const r of [req('u-data', 'u-data'), req('sequencer', 'EPHEMERAL')])
      await env.state.create(VolumeMountRequest.new(BLOCK_NAMESPACE, r.id, r.spec));
    await assertResource(env.state, VolumeMountStatus, 'u-data', (s) => expect(s.spec.target).toBe(dataDir), {
      namespace: BLOCK_NAMESPACE,
      signal,
      timeoutMs: 20_000,
    });
    // the user volume is mounted on EPHEMERAL's filesystem, not on the directory EPHEMERAL covers
    const info = readMountInfo();
    const varMount = info.filter((x) => x.mountPoint === varDir).at(-1)!;
    const dataMount = info.filter((x) => x.mountPoint === dataDir).at(-1)!;
    expect([varMount.source, dataMount.source]).toEqual([eph.path, data.path]);
    expect(dataMount.parentId).toBe(varMount.id);

    await env.state.destroy(VolumeMountRequest.pointer('sequencer', BLOCK_NAMESPACE));
    await assertNoResource(env.state, VolumeMountStatus, 'sequencer', {
      namespace: BLOCK_NAMESPACE,
      signal,
      timeoutMs: 20_000,
    });
    await assertNoResource(env.state, VolumeMountStatus, 'u-data', {
      namespace: BLOCK_NAMESPACE,
      signal,
      timeoutMs: 20_000,
    });
    expect([mountedAt(dataDir), mountedAt(varDir)]).toEqual([undefined, undefined]);
  });
});
