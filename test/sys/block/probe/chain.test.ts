import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAIN, ProbeError, probe } from '../../../../src/sys/block/probe/index.js';
import { iso9660 } from '../../../../src/sys/block/probe/iso9660.js';
import { vfat } from '../../../../src/sys/block/probe/vfat.js';
import { blkid, bufferReadAt, noise, readRange, run, scratch, sparseFile } from './tools.js';

const MiB = 1024 * 1024;

describe('probe chain', () => {
  it('keeps upstream go-blockdevice order', () => {
    expect(CHAIN.map((p) => p.name)).toEqual([
      'xfs',
      'ext',
      'vfat',
      'swap',
      'squashfs',
      'talosmeta',
      'luks',
      'iso9660',
    ]);
  });

  it('finds nothing on an all-zero device, as blkid', () => {
    const img = sparseFile(scratch(), 'zero.img', 8 * MiB);
    const zero = Buffer.alloc(8 * MiB);
    expect(probe(bufferReadAt(zero), zero.length)).toBeUndefined();
    expect(blkid(img)).toBeUndefined();
  });

  it('finds nothing in random bytes, as blkid', () => {
    const bytes = noise(8 * MiB, 'random device');
    const img = join(scratch(), 'noise.img');
    writeFileSync(img, bytes);
    expect(probe(bufferReadAt(bytes), bytes.length)).toBeUndefined();
    expect(blkid(img)?.TYPE).toBeUndefined();
  });

  // every magic, planted in random bytes (with the version or type byte that leads furthest in)
  const planted: [string, [number, number[] | string][]][] = [
    ['xfs', [[0, 'XFSB']]],
    ['ext', [[0x438, [0x53, 0xef]]]],
    ['vfat FAT32', [[0x52, 'FAT32   ']]],
    ['vfat FAT16', [[0x36, 'FAT16   ']]],
    [
      'swap',
      [
        [0xff6, 'SWAPSPACE2'],
        [1024, [1, 0, 0, 0]],
      ],
    ],
    ['squashfs', [[0, 'hsqs']]],
    ['META', [[0, [0x5a, 0x4b, 0x3c, 0x2d]]]],
    ['LUKS1', [[0, 'LUKS\xba\xbe\x00\x01']]],
    ['LUKS2', [[0, 'LUKS\xba\xbe\x00\x02']]],
    ['LUKS2 secondary', [[0x4000, 'SKUL\xba\xbe\x00\x02']]],
    ['iso9660', [[0x8000, '\x01CD001\x01']]],
  ];
  it.each(planted)('vouches for no %s magic planted in random bytes', (_name, marks) => {
    const bytes = noise(8 * MiB, 'planted');
    for (const [at, v] of marks)
      (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from(v)).copy(bytes, at);
    expect(probe(bufferReadAt(bytes), bytes.length)).toBeUndefined();
  });

  it('reports the first match in chain order when signatures overlap', () => {
    // an ISO whose system area carries a FAT boot sector: both probers vouch for the device
    const dir = scratch();
    mkdirSync(join(dir, 'tree'));
    writeFileSync(join(dir, 'tree', 'f'), 'x');
    const iso = join(dir, 'x.iso');
    run('xorriso', ['-as', 'mkisofs', '-quiet', '-V', 'BOTH', '-o', iso, join(dir, 'tree')]);
    const fat = sparseFile(dir, 'fat.img', 16 * MiB);
    run('mkfs.vfat', ['-F', '16', '-n', 'BOTH', fat]);
    const both = Buffer.concat([readRange(fat, 0, 512), readRange(iso, 512, 1 * MiB)]);
    expect(probe(bufferReadAt(both), both.length)?.type).toBe('vfat');
    expect(probe(bufferReadAt(both), both.length, [iso9660, vfat])?.type).toBe('iso9660');
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('rejects a device size of %s with a typed error', (size) => {
    expect(() => probe(bufferReadAt(Buffer.alloc(0)), size)).toThrow(ProbeError);
    expect(() => probe(bufferReadAt(Buffer.alloc(0)), size)).toThrow(/is not a byte count/);
  });

  it("passes the reader's own errors through", () => {
    const failing = () => {
      throw new ProbeError('io', '/dev/sdz', 'read: EIO');
    };
    expect(() => probe(failing, MiB)).toThrow(/\/dev\/sdz: read: EIO/);
  });
});
