// Reset on a node: the plan (pure: which labels, refusals naming what is wrong), and the wipe on a real
// loop disk with a GPT — the named partitions unmounted and wiped (blkid finds nothing on them), the
// others left as they were.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import * as block from '../../../resources/block/index.js';
import { ApiError } from '../../../src/api/errors.js';
import { registerDefault, registerNamespace } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { EventBus } from '../../../src/machined/events/index.js';
import { unmountsFor, wipeForReset } from '../../../src/machined/node/reset.js';
import { resetHost } from '../../../src/machined/node/reset-host.js';
import { planReset, type ResetInputs, ResetRefused } from '../../../src/machined/node/reset-plan.js';
import { defaultSequences, Sequencer } from '../../../src/machined/sequencer/index.js';
import { mountedAt } from '../../../src/sys/block/volume-mount.js';
import { attachLoop, sparseImage } from '../../sys/block/gpt/loop-device.js';

const installed: ResetInputs = {
  systemDisk: '/dev/vda',
  partitions: [
    { label: 'EFI', devPath: '/dev/vda1' },
    { label: 'META', devPath: '/dev/vda2' },
    { label: 'STATE', devPath: '/dev/vda3' },
    { label: 'EPHEMERAL', devPath: '/dev/vda4' },
  ],
  disks: ['/dev/vda', '/dev/vdb'],
};

const refusal = (f: () => unknown): ResetRefused => {
  try {
    f();
  } catch (e) {
    if (e instanceof ResetRefused) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('planReset', () => {
  it('wipes STATE and EPHEMERAL when no label is named, keeping the installation', () => {
    const p = planReset({ graceful: true, reboot: true }, installed);
    expect(p.partitions.map((x) => x.label)).toEqual(['STATE', 'EPHEMERAL']);
    expect(p).toMatchObject({ graceful: true, reboot: true, userDisks: [], systemDisk: '/dev/vda' });
  });

  it('wipes the labels asked for with wipe set, and user disks unless the mode excludes them', () => {
    const p = planReset(
      {
        system_partitions_to_wipe: [
          { label: 'EPHEMERAL', wipe: true },
          { label: 'META', wipe: false },
        ],
        user_disks_to_wipe: ['/dev/vdb'],
      },
      installed,
    );
    expect(p.partitions).toEqual([{ label: 'EPHEMERAL', devPath: '/dev/vda4' }]);
    expect(p.userDisks).toEqual(['/dev/vdb']);
    expect(planReset({ user_disks_to_wipe: ['/dev/vdb'], mode: 'SYSTEM_DISK' }, installed).userDisks).toEqual(
      [],
    );
    expect(planReset({ user_disks_to_wipe: ['/dev/vdb'], mode: 2 }, installed).partitions).toEqual([]);
  });

  it('refuses what it cannot do, naming it, and a node without a system disk wipes nothing by default', () => {
    const bad = refusal(() =>
      planReset({ system_partitions_to_wipe: [{ label: 'ROOT', wipe: true }] }, installed),
    );
    expect(bad).toMatchObject({ kind: 'request', message: 'label "ROOT" is not supported' });
    const missing = refusal(() =>
      planReset({ system_partitions_to_wipe: [{ label: 'BOOT', wipe: true }] }, installed),
    );
    expect(missing).toMatchObject({
      kind: 'node',
      message: 'failed to locate the partition with label "BOOT" on the system disk',
    });
    expect(refusal(() => planReset({ user_disks_to_wipe: ['/dev/vda'] }, installed)).message).toBe(
      'user disk "/dev/vda" is the system disk',
    );
    expect(refusal(() => planReset({ user_disks_to_wipe: ['/dev/sdz'] }, installed)).message).toBe(
      'user disk "/dev/sdz" is not a disk of this node',
    );
    const live: ResetInputs = { systemDisk: undefined, partitions: [], disks: ['/dev/vda'] };
    expect(planReset({}, live).partitions).toEqual([]);
    expect(
      refusal(() => planReset({ system_partitions_to_wipe: [{ label: 'STATE', wipe: true }] }, live)).kind,
    ).toBe('node');
    expect(refusal(() => planReset({ mode: 7 }, installed)).message).toBe('wipe mode 7 is not supported');
  });
});

/** fsType is what blkid finds on a device (TYPE), '' for nothing (its partition entry aside) */
const fsType = (dev: string): string => {
  try {
    const out = execFileSync('blkid', ['-p', '-o', 'export', dev], { encoding: 'utf8' });
    return /^TYPE=(.*)$/m.exec(out)?.[1] ?? '';
  } catch {
    return ''; // nothing found: blkid exits 2
  }
};

describe('unmountsFor', () => {
  it('takes down the device’s mounts and everything beneath them, latest first', () => {
    const mounts = [
      { source: '/dev/vda4', mountPoint: '/var' },
      { source: 'tmpfs', mountPoint: '/var/run' },
      { source: '/dev/vdb1', mountPoint: '/var/mnt/data' },
      { source: '/dev/vda3', mountPoint: '/system/state' },
      { source: 'tmpfs', mountPoint: '/variable' },
      { source: '/dev/vda4', mountPoint: '/run/keel/volumes/EPHEMERAL' },
    ];
    expect(unmountsFor(mounts, '/dev/vda4')).toEqual([
      '/run/keel/volumes/EPHEMERAL',
      '/var/mnt/data',
      '/var/run',
      '/var',
    ]);
    expect(unmountsFor(mounts, '/dev/vdc')).toEqual([]);
  });

  it('takes down an overlay whose upper directory is on the device, wherever it is mounted', () => {
    const mounts = [
      { source: '/dev/vda4', mountPoint: '/var' },
      {
        source: 'overlay',
        mountPoint: '/etc/cni',
        fstype: 'overlay',
        superOptions: 'rw,lowerdir=/etc/cni,upperdir=/var/system/overlays/etc-cni-diff,workdir=/x',
      },
      { source: 'overlay', mountPoint: '/opt', fstype: 'overlay', superOptions: 'ro,lowerdir=/a:/b' },
    ];
    expect(unmountsFor(mounts, '/dev/vda4')).toEqual(['/etc/cni', '/var']);
  });
});

describe('wipeForReset on a loop disk', () => {
  it('unmounts and wipes STATE and EPHEMERAL, and leaves META alone', async () => {
    if (process.getuid?.() !== 0) throw new Error('needs root: loop devices, mkfs and mount');
    const image = sparseImage(512 * 2 ** 20);
    execFileSync(
      'sgdisk',
      [
        '-n',
        '1:0:+1M',
        '-c',
        '1:META',
        '-n',
        '2:0:+60M',
        '-c',
        '2:STATE',
        '-n',
        '3:0:0',
        '-c',
        '3:EPHEMERAL',
        image,
      ],
      {
        stdio: 'ignore',
      },
    );
    const loop = attachLoop(image);
    for (const deadline = Date.now() + 10_000; !loop.hasPartition(3); await delay(20)) {
      if (Date.now() > deadline) execFileSync('partx', ['--add', loop.path], { stdio: 'ignore' });
      if (Date.now() > deadline + 5_000) throw new Error('the partitions did not appear');
    }
    const part = (k: number) => `${loop.path}p${k}`;
    execFileSync('mkfs.xfs', ['-q', '-f', '-L', 'EPHEMERAL', part(3)], { stdio: 'ignore' });
    execFileSync('mkfs.ext4', ['-q', '-F', '-L', 'STATE', part(2)], { stdio: 'ignore' });
    expect([fsType(part(2)), fsType(part(3))]).toEqual(['ext4', 'xfs']);
    execFileSync('dd', ['if=/dev/urandom', `of=${part(1)}`, 'bs=64k', 'count=4', 'status=none']);
    const metaBefore = execFileSync('sha256sum', [part(1)], { encoding: 'utf8' }).split(' ')[0];

    const dir = mkdtempSync(join(tmpdir(), 'keel-reset-'));
    onTestFinished(() => {
      if (mountedAt(dir)) execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    });
    execFileSync('mount', [part(3), dir]);
    // a user volume's mount inside EPHEMERAL, from another device: it must come down first
    const inner = join(dir, 'mnt/data');
    mkdirSync(inner, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', inner]);
    onTestFinished(() => {
      if (mountedAt(inner)) execFileSync('umount', ['-l', inner]);
    });

    const log: string[] = [];
    const plan = planReset(
      {},
      {
        systemDisk: loop.path,
        partitions: [
          { label: 'META', devPath: part(1) },
          { label: 'STATE', devPath: part(2) },
          { label: 'EPHEMERAL', devPath: part(3) },
        ],
        disks: [loop.path],
      },
    );
    await wipeForReset(plan, { signal: AbortSignal.timeout(60_000), log: (l) => log.push(l) });

    expect(mountedAt(dir)).toBeUndefined();
    expect(fsType(part(2))).toBe('');
    expect(fsType(part(3))).toBe('');
    expect(execFileSync('sha256sum', [part(1)], { encoding: 'utf8' }).split(' ')[0]).toBe(metaBefore);
    expect(mountedAt(inner)).toBeUndefined();
    expect(log.filter((l) => l.startsWith('unmounted '))).toEqual([`unmounted ${inner}`, `unmounted ${dir}`]);
    expect(log.filter((l) => l.startsWith('wiped partition '))).toEqual([
      expect.stringMatching(new RegExp(`^wiped partition STATE ${part(2)} \\(62914560 bytes`)),
      expect.stringMatching(new RegExp(`^wiped partition EPHEMERAL ${part(3)} \\(`)),
    ]);
  }, 120_000);
});

describe('resetHost', () => {
  it('refuses before anything stops, with upstream’s status codes, and starts the sequence otherwise', async () => {
    const state = wrapCore(newInmemState());
    await registerDefault(state);
    await registerNamespace(state, block.BLOCK_NAMESPACE, 'runtime');
    await block.registerBlockResources(state);
    const wiped: unknown[] = [];
    const stopped: string[] = [];
    const sequencer = new Sequencer({
      events: new EventBus(),
      sequences: defaultSequences({
        services: {
          start: () => {},
          startAll: () => {},
          list: () => [],
          waitFor: async () => {},
          denyNewServices: () => stopped.push('deny'),
          stopAll: async () => void stopped.push('stop'),
        },
        reset: { wipe: async (plan) => void wiped.push(plan) },
      }),
    });
    const actions: string[] = [];
    let shut!: () => void;
    const shutDown = new Promise<void>((r) => {
      shut = r;
    });
    const host = resetHost({
      state,
      sequencer,
      shutdown: async (a) => {
        actions.push(a);
        shut();
      },
      log: () => {},
    });

    const refused = await host
      .reset({ system_partitions_to_wipe: [{ label: 'STATE', wipe: true }] }, 'a1')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'failed-precondition' });
    const bad = await host
      .reset({ system_partitions_to_wipe: [{ label: 'X' }] }, 'a2')
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'invalid-argument', message: 'label "X" is not supported' });
    expect(stopped).toEqual([]);

    await state.create(
      block.SystemDisk.new(block.BLOCK_NAMESPACE, block.SYSTEM_DISK_ID, {
        diskID: 'vda',
        devPath: '/dev/vda',
      }),
    );
    const vol = (id: string, label: string) =>
      block.DiscoveredVolume.new(block.BLOCK_NAMESPACE, id, {
        ...block.DiscoveredVolume.new(block.BLOCK_NAMESPACE, id).spec,
        type: 'partition',
        devPath: `/dev/${id}`,
        parentDevPath: '/dev/vda',
        partitionLabel: label,
      });
    await state.create(vol('vda4', 'STATE'));
    await state.create(vol('vda5', 'EPHEMERAL'));
    await host.reset({ reboot: true }, 'a3');
    await shutDown;
    expect(stopped).toEqual(['deny', 'stop']);
    expect(wiped).toEqual([
      expect.objectContaining({
        reboot: true,
        partitions: [
          { label: 'STATE', devPath: '/dev/vda4' },
          { label: 'EPHEMERAL', devPath: '/dev/vda5' },
        ],
      }),
    ]);
    expect(actions).toEqual(['reboot']);
  });
});
