import { closeSync, existsSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { alignedReadAt, blockDeviceSize, READ_ALIGN } from '../../../../src/sys/block/probe/device.js';
import { ProbeError, probeFd, probePath } from '../../../../src/sys/block/probe/index.js';
import { LO_FLAGS, loopClear, loopConfigure, loopGetFree } from '../../../../src/sys/ioctl-loop.js';
import { noise, run, scratch, sparseFile } from './tools.js';

const MiB = 1024 * 1024;

function ext4Image(): string {
  const img = sparseFile(scratch(), 'ext4.img', 8 * MiB);
  run('mkfs.ext4', ['-q', '-F', '-L', 'loopy', '-U', '55555555-6666-4777-8888-999999999999', img]);
  return img;
}

/** attachLoop binds `file` read-only to a free loop device, detached when the test ends. */
function attachLoop(file: string): string {
  if (!existsSync('/dev/loop-control')) throw new Error('needs /dev/loop-control (the loop driver) and root');
  const ctl = openSync('/dev/loop-control', 'r+');
  let n: number;
  try {
    n = loopGetFree(ctl);
  } finally {
    closeSync(ctl);
  }
  const dev = `/dev/loop${n}`;
  const loop = openSync(dev, 'r');
  onTestFinished(() => closeSync(loop));
  const backing = openSync(file, 'r');
  try {
    loopConfigure(loop, { backingFd: backing, flags: LO_FLAGS.READ_ONLY, fileName: file });
  } finally {
    closeSync(backing); // the kernel holds its own reference once configured
  }
  onTestFinished(() => loopClear(loop));
  return dev;
}

describe('probePath through a loop device', () => {
  it('sees through the block device what it sees in the file', () => {
    const img = ext4Image();
    const dev = attachLoop(img);
    const fromFile = probePath(img);
    expect(fromFile?.type).toBe('ext4');
    expect(probePath(dev)).toEqual(fromFile);
  });

  it('sizes the block device with BLKGETSIZE64', () => {
    const img = ext4Image();
    const fd = openSync(attachLoop(img), 'r');
    onTestFinished(() => closeSync(fd));
    expect(blockDeviceSize(fd)).toBe(statSync(img).size);
  });
});

describe('probePath and probeFd errors', () => {
  it('names a missing path as not found', () => {
    const missing = join(scratch(), 'nope.img');
    expect(() => probePath(missing)).toThrow(ProbeError);
    expect(() => probePath(missing)).toThrow(expect.objectContaining({ code: 'not-found', path: missing }));
  });

  it.each([
    [
      'a directory',
      () => {
        const d = join(scratch(), 'd');
        mkdirSync(d);
        return d;
      },
    ],
    ['a character device', () => '/dev/null'],
  ])('refuses %s as neither a block device nor a file', (what, make) => {
    const path = make();
    expect(() => probePath(path)).toThrow(expect.objectContaining({ code: 'unsupported-file-type', path }));
    expect(() => probePath(path)).toThrow(new RegExp(`is ${what}, not a block device`));
  });

  it('names the descriptor in read errors and rejects bad arguments', () => {
    const img = ext4Image();
    const fd = openSync(img, 'r');
    closeSync(fd); // reads now fail with EBADF
    expect(() => probeFd(fd, MiB)).toThrow(expect.objectContaining({ code: 'io', path: `fd ${fd}` }));
    expect(() => probeFd(-1, MiB)).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
    expect(() => probeFd(0, -5, { name: '/dev/vda' })).toThrow(/^\/dev\/vda: device size -5/);
  });

  it('probes an open descriptor as it probes the path', () => {
    const img = ext4Image();
    const fd = openSync(img, 'r');
    onTestFinished(() => closeSync(fd));
    expect(probeFd(fd, statSync(img).size)).toEqual(probePath(img));
  });
});

describe('alignedReadAt', () => {
  it('returns exactly the bytes asked for from whole aligned blocks, short at the end', () => {
    const bytes = noise(3 * READ_ALIGN + 100, 'aligned');
    const file = join(scratch(), 'bytes');
    writeFileSync(file, bytes);
    const fd = openSync(file, 'r');
    onTestFinished(() => closeSync(fd));
    const readAt = alignedReadAt(fd, bytes.length, file);
    for (const [offset, length] of [
      [0, 1],
      [1, 10],
      [READ_ALIGN - 3, 7],
      [READ_ALIGN, READ_ALIGN],
      [5000, 8000],
    ] as const) {
      expect(readAt(offset, length)).toEqual(bytes.subarray(offset, offset + length));
    }
    expect(readAt(bytes.length - 10, 50)).toEqual(bytes.subarray(bytes.length - 10));
    expect(readAt(bytes.length + 1, 4)).toHaveLength(0);
  });
});
