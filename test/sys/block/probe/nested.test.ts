// The nested probe on disk images: a GPT made by sgdisk is read as blkid reads it (PTUUID, entries),
// each entry's range probed for its filesystem, and a bare filesystem wins over the table as in
// upstream's chain order (xfs, ext, vfat and swap come before gpt).
import { describe, expect, it } from 'vitest';
import { probeSignatures } from '../../../../src/sys/block/probe/index.js';
import { bufferReadAt, parseBlkidExport, readRange, run, scratch, sparseFile } from './tools.js';

const MiB = 1 << 20;

describe('probeSignatures', () => {
  it('reads a GPT and what its partitions hold as blkid does', async () => {
    const img = sparseFile(scratch(), 'disk.img', 48 * MiB);
    run('sgdisk', ['-n', '1:0:+1M', '-c', '1:META', '-n', '2:0:+32M', '-c', '2:EFI', '-t', '2:ef00', img]);
    const pt = parseBlkidExport(run('blkid', ['-p', '-o', 'export', img]));
    // the EFI partition gets a FAT filesystem, written into its range of the image
    const offset = 2 * MiB;
    const efi = sparseFile(scratch(), 'efi.img', 32 * MiB);
    run('mkfs.vfat', ['-n', 'EFI', efi]);
    run('dd', [
      `if=${efi}`,
      `of=${img}`,
      'bs=1M',
      `seek=${offset / MiB}`,
      'conv=notrunc,sparse',
      'status=none',
    ]);
    const fat = parseBlkidExport(run('blkid', ['-p', '-o', 'export', efi]));

    const buf = readRange(img, 0, 48 * MiB);
    const found = await probeSignatures(bufferReadAt(buf), buf.length, 512);
    expect(found.signature).toMatchObject({ name: 'gpt', uuid: pt.PTUUID, blockSize: 512 });
    expect(found.parts.map((p) => [p.index, p.label, p.offset, p.size])).toEqual([
      [1, 'META', 1 * MiB, 1 * MiB],
      [2, 'EFI', 2 * MiB, 32 * MiB],
    ]);
    expect(found.parts[1]?.type).toBe('c12a7328-f81f-11d2-ba4b-00a0c93ec93b');
    expect(found.parts[1]?.signature).toMatchObject({ name: 'vfat', uuid: fat.UUID, label: 'EFI' });
    expect(found.parts[0]?.signature).toBeUndefined();
    const sgdisk = run('sgdisk', ['-i', '2', img]);
    expect(sgdisk.toLowerCase()).toContain(`partition unique guid: ${found.parts[1]?.uuid}`);
  });

  it('finds a bare filesystem, and nothing on a blank device', async () => {
    const img = sparseFile(scratch(), 'fat.img', 8 * MiB);
    run('mkfs.vfat', ['-n', 'BARE', img]);
    const buf = readRange(img, 0, 8 * MiB);
    const found = await probeSignatures(bufferReadAt(buf), buf.length, 512);
    expect(found).toMatchObject({ signature: { name: 'vfat', label: 'BARE' }, parts: [] });
    const blank = Buffer.alloc(8 * MiB);
    expect(await probeSignatures(bufferReadAt(blank), blank.length, 512)).toEqual({
      signature: undefined,
      parts: [],
    });
  });
});
