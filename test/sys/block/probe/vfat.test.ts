import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import {
  blkid,
  bufferReadAt,
  expectAsBlkid,
  readRange,
  run,
  scratch,
  sparseFile,
  writeRange,
} from './tools.js';

const MiB = 1024 * 1024;

function mkfs(fat: 12 | 16 | 32, size: number, args: readonly string[]): string {
  const img = sparseFile(scratch(), `fat${fat}.img`, size);
  run('mkfs.vfat', ['-F', String(fat), ...args, img]);
  return img;
}

describe('vfat on real images', () => {
  it.each([
    [12, 2 * MiB],
    [16, 16 * MiB],
    [32, 33 * MiB],
  ] as const)('reads FAT%i label and volume id as blkid does', (fat, size) => {
    const img = mkfs(fat, size, ['-n', `KEEL FAT${fat}`, '-i', '1234ABCD']);
    const ours = probePath(img);
    const tags = expectAsBlkid(ours, img);
    expect([tags.VERSION, tags.LABEL, tags.UUID]).toEqual([`FAT${fat}`, `KEEL FAT${fat}`, '1234-ABCD']);
    // mkfs.vfat formats the whole file
    expect(ours?.probedSize).toBe(statSync(img).size);
    const bs = readRange(img, 0, 16);
    expect(ours?.filesystemBlockSize).toBe(bs[0x0d]! * bs.readUInt16LE(0x0b));
  });

  it('has no label when mkfs.vfat was given none, as blkid', () => {
    const img = mkfs(16, 16 * MiB, ['-i', 'DEADBEEF']);
    const ours = probePath(img);
    expectAsBlkid(ours, img);
    expect(ours?.label).toBeUndefined();
  });

  it.each([
    [16, 0x2b],
    [32, 0x47],
  ] as const)('prefers the root directory label to the FAT%i boot sector copy, as blkid', (fat, at) => {
    const img = mkfs(fat, fat === 16 ? 16 * MiB : 33 * MiB, ['-n', 'ROOTDIR']);
    writeRange(img, at, Buffer.from('BOOTSECT   ', 'latin1'));
    const tags = expectAsBlkid(probePath(img), img);
    expect([tags.LABEL, tags.LABEL_FATBOOT]).toEqual(['ROOTDIR', 'BOOTSECT']);
  });

  it('refuses a boot sector whose cluster arithmetic does not add up, as blkid', () => {
    const img = mkfs(16, 16 * MiB, ['-n', 'X']);
    writeRange(img, 0x0d, Buffer.from([3])); // 3 sectors per cluster: not a power of two
    expect(probePath(img)).toBeUndefined();
    expect(blkid(img)?.TYPE).toBeUndefined(); // blkid falls back to reading the 0x55AA sector as an MBR
  });

  it('finds nothing in a boot sector cut short by the end of the device', () => {
    const img = mkfs(12, 2 * MiB, []);
    const head = readRange(img, 0, 64 * 1024);
    expect(probe(bufferReadAt(head), head.length)?.type).toBe('vfat');
    for (const size of [0x3e, 300, 511]) expect(probe(bufferReadAt(head), size)).toBeUndefined();
  });
});
