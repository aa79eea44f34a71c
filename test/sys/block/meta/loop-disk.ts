// A real disk for META tests: a sparse image with a GPT made by sgdisk, on a loop device with its
// partitions scanned, removed again when the test finishes. A kernel built without a GPT parser
// (CONFIG_EFI_PARTITION unset) scans nothing; partx then reads the table and adds the partitions (BLKPG).
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { onTestFinished } from 'vitest';
import { isSysError } from '../../../../src/sys/errno.js';
import { LO_FLAGS, loopClear, loopConfigure, loopGetFree } from '../../../../src/sys/ioctl-loop.js';

export interface LoopDisk {
  /** the backing image file */
  readonly image: string;
  /** the whole disk, /dev/loopN */
  readonly disk: string;
  /** its first partition, META, /dev/loopNp1 */
  readonly part: string;
}

/** gptLoopDisk makes an 8 MiB image with one 1 MiB partition labelled META and attaches it. */
export async function gptLoopDisk(): Promise<LoopDisk> {
  if (process.getuid?.() !== 0) throw new Error('needs root: loop devices');
  if (!existsSync('/dev/loop-control')) throw new Error('needs /dev/loop-control (the loop driver)');
  const dir = mkdtempSync(join(tmpdir(), 'keel-meta-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const image = join(dir, 'disk.img');
  const fd = openSync(image, 'w');
  ftruncateSync(fd, 8 << 20);
  closeSync(fd);
  execFileSync('sgdisk', ['-n', '1:0:+1M', '-c', '1:META', image], { stdio: 'ignore' });

  const disk = attach(image);
  const part = `${disk}p1`;
  const name = disk.slice('/dev/'.length);
  if (!existsSync(`/sys/block/${name}/${name}p1`))
    execFileSync('partx', ['--add', disk], { stdio: 'ignore' });
  // the kernel scans the table while configuring; its node may still be on its way through devtmpfs
  for (const deadline = Date.now() + 10_000; !isBlockDevice(part); await delay(20)) {
    if (Date.now() > deadline) throw new Error(`${part} did not appear after the partition scan`);
  }
  return { image, disk, part };
}

function attach(image: string): string {
  // another test may take the free device between asking and configuring: then ask again
  for (let attempt = 0; ; attempt++) {
    const ctl = openSync('/dev/loop-control', 'r+');
    const n = loopGetFree(ctl);
    closeSync(ctl);
    const disk = `/dev/loop${n}`;
    const loop = openSync(disk, 'r+');
    const backing = openSync(image, 'r+');
    try {
      loopConfigure(loop, { backingFd: backing, flags: LO_FLAGS.PARTSCAN, fileName: image });
    } catch (e) {
      closeSync(loop);
      if (isSysError(e, 'EBUSY') && attempt < 20) continue;
      throw e;
    } finally {
      closeSync(backing);
    }
    onTestFinished(() => {
      try {
        loopClear(loop);
      } finally {
        closeSync(loop);
      }
    });
    return disk;
  }
}

const isBlockDevice = (p: string): boolean => {
  try {
    return statSync(p).isBlockDevice();
  } catch {
    return false;
  }
};
