// What the block controller tests share: a loop disk with a real GPT (sgdisk) and real filesystems
// (mkfs.xfs, mkfs.vfat), detached and removed however the test ends, blkid's and blockdev's answers,
// and a runtime on in-memory state running the controllers under test.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { onTestFinished } from 'vitest';
import { LO_FLAGS } from '../../../src/sys/ioctl-loop.js';
import { attachLoop, image, type Loop, tempDir } from '../../sys/block/devices/loop-fixture.js';
import { blkid, run } from '../../sys/block/probe/tools.js';

export { startRuntime } from '../network/env.js';
export { blkid, run };

const MiB = 1 << 20;

export interface TestDisk {
  readonly loop: Loop;
  /** the kernel name, loopN */
  readonly name: string;
  /** /dev/loopN */
  readonly path: string;
  /** the kernel name of partition n, loopNpn */
  part(n: number): string;
}

const isBlockDevice = (p: string): boolean => {
  try {
    return statSync(p).isBlockDevice();
  } catch {
    return false;
  }
};

/** waitForNode waits (setup only, never an assertion) for devtmpfs to make a partition's node. */
async function waitForNode(path: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !isBlockDevice(path); await delay(20))
    if (Date.now() > deadline) throw new Error(`${path} did not appear`);
}

/**
 * gptDisk attaches a 400 MiB sparse image laid out as a Talos system disk: META (1 MiB, raw), STATE
 * (xfs, which wants 300 MiB at least) and EFI (vfat, EFI system type).
 */
export async function gptDisk(): Promise<TestDisk> {
  if (process.getuid?.() !== 0) throw new Error('needs root: loop devices, mkfs');
  const file = image(tempDir('block-ctl'), 400 * MiB);
  run('sgdisk', [
    ...['-n', '1:0:+1M', '-c', '1:META'],
    ...['-n', '2:0:+310M', '-c', '2:STATE'],
    ...['-n', '3:0:+32M', '-c', '3:EFI', '-t', '3:ef00'],
    file,
  ]);
  const loop = attachLoop(file, { flags: LO_FLAGS.PARTSCAN, create: true });
  const disk: TestDisk = { loop, name: loop.name, path: loop.path, part: (n) => `${loop.name}p${n}` };
  if (!existsSync(`/sys/class/block/${disk.part(1)}`)) run('partx', ['--add', disk.path]);
  for (const n of [1, 2, 3]) await waitForNode(`/dev/${disk.part(n)}`);
  run('mkfs.xfs', ['-q', '-f', '-L', 'STATE', `/dev/${disk.part(2)}`]);
  run('mkfs.vfat', ['-n', 'EFI', `/dev/${disk.part(3)}`]);
  return disk;
}

/** addPartition adds partition n through the disk (sgdisk) and makes sure the kernel has it (partx). */
export async function addPartition(d: TestDisk, n: number, label: string, sizeMiB: number): Promise<void> {
  run('sgdisk', ['-n', `${n}:0:+${sizeMiB}M`, '-c', `${n}:${label}`, d.path]);
  if (!existsSync(`/sys/class/block/${d.part(n)}`)) run('partx', ['--add', '--nr', String(n), d.path]);
  await waitForNode(`/dev/${d.part(n)}`);
}

/** deletePartition removes partition n from the table and from the kernel. */
export function deletePartition(d: TestDisk, n: number): void {
  run('sgdisk', ['-d', String(n), d.path]);
  if (existsSync(`/sys/class/block/${d.part(n)}`)) run('partx', ['--delete', '--nr', String(n), d.path]);
}

/**
 * announceChange asks the kernel to send a `change` uevent for a device, as udevd does when a writer
 * closes a disk it watches (mkfs): what a node's udevd would do for the tools run here.
 */
export function announceChange(name: string): void {
  writeFileSync(`/sys/class/block/${name}/uevent`, 'change');
}

/** blockdev asks util-linux's blockdev for a number (--getsize64, --getss, --getioopt …). */
export const blockdev = (flag: string, path: string): number => Number(run('blockdev', [flag, path]).trim());

/** cleanupOnFinish is onTestFinished for a runtime's stop, kept here so tests read the same. */
export const stopOnFinish = (env: { stop(): Promise<void> }) => onTestFinished(env.stop);
