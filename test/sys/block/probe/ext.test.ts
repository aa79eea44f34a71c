import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { extType } from '../../../../src/sys/block/probe/ext.js';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { bufferReadAt, expectAsBlkid, readRange, run, scratch, sparseFile, writeRange } from './tools.js';

const MiB = 1024 * 1024;

/** dumpe2fs reads the superblock header with e2fsprogs' own reader: its fields and its complaints. */
function dumpe2fs(img: string): { fields: Record<string, string>; stderr: string } {
  const r = spawnSync('dumpe2fs', ['-h', img], { encoding: 'utf8' });
  const fields: Record<string, string> = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^([^:]+):\s+(.*)$/.exec(line);
    if (m) fields[m[1]!] = m[2]!;
  }
  return { fields, stderr: r.stderr };
}

function mkfs(args: readonly string[], size = 8 * MiB): string {
  const img = sparseFile(scratch(), 'ext.img', size);
  run('mkfs.ext4', ['-q', '-F', ...args, img]);
  return img;
}

describe('ext2/ext3/ext4 on real images', () => {
  it('reads an ext4 label, UUID and sizes as blkid and dumpe2fs do', () => {
    const uuid = '11111111-2222-4333-8444-555555555555';
    const img = mkfs(['-L', 'keel ext4', '-U', uuid]);
    const ours = probePath(img);
    const tags = expectAsBlkid(ours, img);
    expect([tags.TYPE, tags.LABEL, tags.UUID]).toEqual(['ext4', 'keel ext4', uuid]);
    const { fields } = dumpe2fs(img);
    expect(fields['Filesystem features']).toMatch(/metadata_csum/); // so the checksum path ran
    expect(ours?.filesystemBlockSize).toBe(Number(fields['Block size']));
    expect(ours?.probedSize).toBe(Number(fields['Block count']) * Number(fields['Block size']));
  });

  it.each([
    ['ext2', ['-t', 'ext2']],
    ['ext3', ['-t', 'ext3']],
    ['ext4 without a journal', ['-O', '^has_journal']],
    ['ext4 with 4 KiB blocks and 64bit', ['-b', '4096', '-O', '64bit']],
    ['ext4dev (test_fs flag)', ['-E', 'test_fs']],
  ])('tells %s apart by its feature flags as blkid does', (_name, args) => {
    const img = mkfs(['-L', 'x', ...args], 16 * MiB);
    expectAsBlkid(probePath(img), img);
  });

  it('refuses a metadata_csum superblock whose checksum no longer matches, as dumpe2fs judges it', () => {
    const img = mkfs(['-L', 'keel']);
    expect(probePath(img)?.type).toBe('ext4');
    const sb = readRange(img, 1024, 1024);
    sb[0x78] = 'X'.charCodeAt(0); // the label; s_checksum is left as it was
    writeRange(img, 1024, sb);
    expect(dumpe2fs(img).stderr).toMatch(/checksum does not match/);
    // blkid 2.38 does not check it (later versions do)
    expect(probePath(img)).toBeUndefined();
  });

  it('finds nothing in a superblock cut short by the end of the device', () => {
    const img = mkfs([]);
    const head = readRange(img, 0, 4096);
    expect(probe(bufferReadAt(head), head.length)?.type).toBe('ext4');
    for (const size of [1024 + 0x3a, 1100, 2047]) expect(probe(bufferReadAt(head), size)).toBeUndefined();
  });
});

describe('extType (pure)', () => {
  const f = (compat: number, incompat: number, roCompat: number, flags = 0) => ({
    compat,
    incompat,
    roCompat,
    flags,
  });
  it('follows blkid: jbd, then ext4dev, then ext4 for any feature ext3 lacks, then ext3 for a journal', () => {
    expect(extType(f(0x4, 0x8, 0))).toBe('jbd');
    expect(extType(f(0x4, 0x2, 0x1, 0x4))).toBe('ext4dev');
    expect(extType(f(0, 0x40, 0))).toBe('ext4'); // extents
    expect(extType(f(0, 0x2, 0x8))).toBe('ext4'); // huge_file
    expect(extType(f(0x4, 0x2 | 0x4, 0x1 | 0x2))).toBe('ext3'); // journal, recover
    expect(extType(f(0, 0x2 | 0x10, 0x1 | 0x2 | 0x4))).toBe('ext2');
  });
  it('claims nothing for a journal-less volume that needs recovery (no blkid prober accepts it)', () => {
    expect(extType(f(0, 0x4, 0))).toBeUndefined();
  });
});
