import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { mergeJoliet } from '../../../../src/sys/block/probe/iso9660.js';
import { bufferReadAt, expectAsBlkid, readRange, run, scratch, sparseFile, writeRange } from './tools.js';

const PVD = 0x8000;

/** mkisofs builds an ISO of a one-file tree with xorriso's mkisofs emulation. */
function mkisofs(args: readonly string[]): string {
  const dir = scratch();
  const src = join(dir, 'tree');
  mkdirSync(join(src, 'boot'), { recursive: true });
  writeFileSync(join(src, 'boot', 'vmlinuz'), 'kernel');
  const iso = join(dir, 'keel.iso');
  run('xorriso', ['-as', 'mkisofs', '-quiet', ...args, '-o', iso, src]);
  return iso;
}

describe('iso9660 on real images', () => {
  it('takes the volume id as LABEL and the modification date as UUID, as blkid', () => {
    const iso = mkisofs(['-V', 'KEEL_1_0', '--modification-date=2024010203040506']);
    const tags = expectAsBlkid(probePath(iso), iso);
    expect([tags.LABEL, tags.UUID]).toEqual(['KEEL_1_0', '2024-01-02-03-04-05-06']);
  });

  it('falls back to the creation date when the modification date is unset, as blkid', () => {
    const iso = mkisofs(['-V', 'KEEL']);
    const pvd = readRange(iso, PVD, 2048);
    pvd.write('0000000000000000', 830, 'latin1'); // ECMA-119's "not specified": all '0', offset 0
    pvd[846] = 0;
    writeRange(iso, PVD, pvd);
    const ours = probePath(iso);
    expectAsBlkid(ours, iso);
    expect(ours?.uuid).toMatch(/^\d{4}(-\d\d){6}$/);
  });

  it('rebuilds a long mixed-case Joliet label from both descriptors, as blkid', () => {
    const iso = mkisofs(['-J', '-V', 'Keel node image, a long label']);
    const tags = expectAsBlkid(probePath(iso), iso);
    expect(tags.LABEL).toBe('Keel node image, a long label');
  });

  it.each([
    ['an MBR', []],
    ['a GPT', ['-appended_part_as_gpt']],
  ])('is iso9660 with %s and a FAT partition in its system area (hybrid), as blkid', (_what, extra) => {
    const efi = sparseFile(scratch(), 'efi.img', 2 * 1024 * 1024);
    run('mkfs.vfat', ['-n', 'EFI', efi]);
    const iso = mkisofs(['-V', 'HYBRID', ...extra, '-append_partition', '2', '0xef', efi]);
    const tags = expectAsBlkid(probePath(iso), iso);
    expect(tags.PTTYPE).toBeDefined(); // the partition table is really there; the GPT level is not probed here
  });

  it('finds nothing in a descriptor set cut short by the end of the device', () => {
    const iso = mkisofs(['-V', 'X']);
    const head = readRange(iso, 0, 64 * 1024);
    expect(probe(bufferReadAt(head), head.length)?.type).toBe('iso9660');
    for (const size of [PVD + 6, PVD + 1000, PVD + 2047])
      expect(probe(bufferReadAt(head), size)).toBeUndefined();
  });
});

describe('mergeJoliet (pure)', () => {
  // both descriptors pad with spaces, as mkisofs writes them
  const utf16 = (s: string) => {
    const b = Buffer.alloc(32);
    for (let i = 0; i < 16; i++) b.writeUInt16BE(i < s.length ? s.charCodeAt(i) : 0x20, i * 2);
    return b;
  };
  const ascii = (s: string) => Buffer.from(s.padEnd(32, ' '), 'latin1');
  const text = (u: number[] | undefined) => (u ? String.fromCharCode(...u).trimEnd() : undefined);

  it('keeps the case Joliet has and the length the primary has', () => {
    expect(text(mergeJoliet(utf16('Keel node image,'), ascii('KEEL NODE IMAGE, A LONG LABEL')))).toBe(
      'Keel node image, A LONG LABEL',
    );
  });
  it("takes Joliet's character where the primary could only write '_', and the other way round", () => {
    expect(text(mergeJoliet(utf16('Übung_'), ascii('_BUNGX')))).toBe('ÜbungX');
  });
  it("carries a surrogate pair for one '_' of the primary", () => {
    expect(text(mergeJoliet(utf16('a\u{1F600}b'), ascii('A_B')))).toBe('a\u{1F600}b');
  });
  it('gives up when Joliet is not a prefix of the primary', () => {
    expect(mergeJoliet(utf16('Other'), ascii('KEEL'))).toBeUndefined();
  });
});
