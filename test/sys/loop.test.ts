import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  encodeLoopConfig,
  LO_FLAGS,
  LOOP_CONFIG,
  LOOP_INFO64,
  loopClear,
  loopConfigure,
  loopGetFree,
  loopStatus,
} from '../../src/sys/ioctl-loop.js';

describe('loop_config layout', () => {
  it('puts fd, block size, offset, size limit and flags where the kernel reads them', () => {
    const b = encodeLoopConfig({
      backingFd: 7,
      blockSize: 4096,
      offset: 512n,
      sizeLimit: 1n << 40n,
      flags: 5,
    });
    expect(b.length).toBe(304);
    expect(b.readUInt32LE(0)).toBe(7);
    expect(b.readUInt32LE(4)).toBe(4096);
    expect(b.readBigUInt64LE(LOOP_CONFIG.info + LOOP_INFO64.offset)).toBe(512n);
    expect(b.readBigUInt64LE(LOOP_CONFIG.info + 32)).toBe(1n << 40n);
    expect(b.readUInt32LE(LOOP_CONFIG.info + 52)).toBe(5);
  });
});

describe('loop devices through ioctl', () => {
  it('gets a free device, configures it on a file and clears it', () => {
    if (!existsSync('/dev/loop-control')) throw new Error('needs /dev/loop-control (the loop driver)');
    const dir = mkdtempSync(join(tmpdir(), 'keel-loop-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'disk.img');
    writeFileSync(file, Buffer.alloc(1 << 20));

    const ctl = openSync('/dev/loop-control', 'r+');
    const n = loopGetFree(ctl);
    closeSync(ctl);
    expect(n).toBeGreaterThanOrEqual(0);

    const loop = openSync(`/dev/loop${n}`, 'r+');
    onTestFinished(() => closeSync(loop));
    const backing = openSync(file, 'r+');
    try {
      loopConfigure(loop, { backingFd: backing, flags: LO_FLAGS.READ_ONLY, offset: 4096n, fileName: file });
    } finally {
      closeSync(backing); // the kernel holds its own reference once configured
    }
    onTestFinished(() => {
      try {
        loopClear(loop);
      } catch {
        // already cleared by the test
      }
    });
    const st = loopStatus(loop);
    expect(st.number).toBe(n);
    expect(st.offset).toBe(4096n);
    expect(st.flags & LO_FLAGS.READ_ONLY).toBe(LO_FLAGS.READ_ONLY);
    expect(st.fileName).toBe(file);
    loopClear(loop);
    expect(() => loopStatus(loop)).toThrow(/ENXIO/);
  });
});
