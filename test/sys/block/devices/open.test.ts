import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  closeBlockDevice,
  decodeDevT,
  deviceLabel,
  deviceNumber,
  openBlockDevice,
} from '../../../../src/sys/block/devices/open.js';
import { attachLoop, image, lsblk, tempDir } from './loop-fixture.js';

describe('decodeDevT', () => {
  it('splits dev_t as glibc does, large minors included', () => {
    // makedev(M, m) = (m & 0xff) | ((M & 0xfff) << 8) | ((m & ~0xff) << 12) | ((M & ~0xfff) << 32)
    expect(decodeDevT(0x0801n)).toEqual({ major: 8, minor: 1 });
    expect(decodeDevT((259n << 8n) | 0x12n | (0x34500n << 12n))).toEqual({ major: 259, minor: 0x34512 });
    expect(decodeDevT((0x1000n << 32n) | (0x007n << 8n))).toEqual({ major: 0x1007, minor: 0 });
  });
});

describe('openBlockDevice', () => {
  it('opens a block device and names it by path; a bare descriptor is named by number', () => {
    const loop = attachLoop(image(tempDir('open'), 4 << 20));
    const d = openBlockDevice(loop.path);
    onTestFinished(() => closeBlockDevice(d));
    expect(d.path).toBe(loop.path);
    expect(deviceLabel(d)).toBe(loop.path);
    expect(deviceLabel(7)).toBe('fd 7');
    const { major, minor } = deviceNumber(d);
    expect(`${major}:${minor}`).toBe(lsblk(loop.path)[0]!.majMin);
  });

  it('refuses a regular file, a missing path, and (with exclusive) a device held open exclusively', () => {
    const dir = tempDir('notblk');
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    expect(() => openBlockDevice(file)).toThrow(
      expect.objectContaining({ code: 'not-a-block-device', device: file }),
    );
    expect(() => openBlockDevice(join(dir, 'none'))).toThrow(expect.objectContaining({ code: 'not-found' }));
    const loop = attachLoop(image(dir, 4 << 20));
    const held = openBlockDevice(loop.path, { exclusive: true });
    onTestFinished(() => closeBlockDevice(held));
    expect(() => openBlockDevice(loop.path, { exclusive: true })).toThrow(
      expect.objectContaining({ code: 'busy', device: loop.path }),
    );
  });

  it('refuses major:minor of a descriptor that is not a block device', () => {
    const dir = tempDir('devno');
    writeFileSync(join(dir, 'f'), '');
    const fd = openSync(join(dir, 'f'), 'r');
    onTestFinished(() => closeSync(fd));
    expect(() => deviceNumber(fd)).toThrow(
      expect.objectContaining({ code: 'not-a-block-device', device: `fd ${fd}` }),
    );
  });
});
