// Loop devices for the tests that need the kernel's view of a table: a sparse image attached with
// LO_FLAGS.PARTSCAN (so the kernel makes partition devices), detached when the test finishes, pass or fail.
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { isSysError } from '../../../../src/sys/errno.js';
import { LO_FLAGS, loopClear, loopConfigure, loopGetFree } from '../../../../src/sys/ioctl-loop.js';

/** sparseImage makes an empty file of `bytes` in a fresh directory, removed when the test finishes. */
export function sparseImage(bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-gpt-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'disk.img');
  writeFileSync(file, '');
  truncateSync(file, bytes);
  return file;
}

export interface Loop {
  /** /dev/loopN */
  readonly path: string;
  /** loopN, its name under /sys/block */
  readonly name: string;
  /** the device, open read-write */
  readonly fd: number;
  /** openPartition opens /dev/loopNpK ('r' unless told) and closes it before the device is detached */
  openPartition(k: number, flags?: 'r' | 'r+'): number;
  /** sysfs reads /sys/block/loopN/loopNpK/<file> (start and size count 512-byte units) */
  sysfs(k: number, file: 'start' | 'size'): bigint;
  hasPartition(k: number): boolean;
}

export interface LoopOptions {
  /** logical block size, 512 unless given */
  readonly blockSize?: number;
}

/** attachLoop binds `file` to a free loop device with partition scanning (LO_FLAGS.PARTSCAN). */
export function attachLoop(file: string, opts: LoopOptions = {}): Loop {
  const flags = LO_FLAGS.PARTSCAN;
  const blockSize = opts.blockSize ?? 512;
  if (!existsSync('/dev/loop-control')) throw new Error('needs /dev/loop-control (the loop driver) and root');
  const backing = openSync(file, 'r+');
  try {
    for (let attempt = 1; ; attempt++) {
      const ctl = openSync('/dev/loop-control', 'r+');
      let n: number;
      try {
        n = loopGetFree(ctl);
      } finally {
        closeSync(ctl);
      }
      const fd = openSync(`/dev/loop${n}`, 'r+');
      try {
        loopConfigure(fd, { backingFd: backing, flags, blockSize, fileName: file });
      } catch (e) {
        closeSync(fd);
        // someone else bound this free device between our two calls; losetup asks for another one too
        if (isSysError(e, 'EBUSY') && attempt < 20) continue;
        throw e;
      }
      return track(n, fd);
    }
  } finally {
    closeSync(backing); // the loop device holds its own reference now
  }
}

function track(n: number, fd: number): Loop {
  const name = `loop${n}`;
  const opened: number[] = [];
  onTestFinished(() => {
    for (const p of opened.splice(0)) closeSync(p);
    try {
      loopClear(fd);
    } finally {
      closeSync(fd);
    }
  });
  const dir = (k: number) => `/sys/block/${name}/${name}p${k}`;
  return {
    path: `/dev/${name}`,
    name,
    fd,
    openPartition(k, flags = 'r') {
      const p = openSync(`/dev/${name}p${k}`, flags);
      opened.push(p);
      return p;
    },
    sysfs: (k, f) => BigInt(readFileSync(join(dir(k), f), 'utf8').trim()),
    hasPartition: (k) => existsSync(dir(k)),
  };
}
