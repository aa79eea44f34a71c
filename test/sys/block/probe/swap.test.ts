import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { bufferReadAt, expectAsBlkid, readRange, run, scratch, sparseFile, writeRange } from './tools.js';

const MiB = 1024 * 1024;

function mkswap(args: readonly string[], size = 4 * MiB): string {
  const img = sparseFile(scratch(), 'swap.img', size);
  run('mkswap', ['-q', ...args, img]);
  return img;
}

describe('swap on real images', () => {
  it.each([4096, 16384, 65536])('reads label and UUID with %i-byte pages as blkid does', (page) => {
    const uuid = '22222222-3333-4444-8555-666666666666';
    const img = mkswap(['-p', String(page), '-L', 'keelswap', '-U', uuid]);
    const ours = probePath(img);
    const tags = expectAsBlkid(ours, img);
    expect([tags.LABEL, tags.UUID]).toEqual(['keelswap', uuid]);
    expect(ours?.blockSize).toBe(page);
    // mkswap uses the whole file, and its last page is the page before the end
    expect(ours?.probedSize).toBe(4 * MiB - page);
  });

  it('has no label when mkswap was given none, as blkid', () => {
    const img = mkswap([]);
    const ours = probePath(img);
    expectAsBlkid(ours, img);
    expect(ours?.label).toBeUndefined();
  });

  it('reports an old SWAP-SPACE signature without label or UUID, as blkid', () => {
    const img = mkswap(['-L', 'gone']);
    writeRange(img, 4096 - 10, Buffer.from('SWAP-SPACE', 'latin1'));
    const ours = probePath(img);
    expectAsBlkid(ours, img);
    expect(ours).toMatchObject({ type: 'swap', blockSize: 4096 });
  });

  it('ignores a header with no last page, more pages than the device, or cut short by the end', () => {
    const img = mkswap([]);
    const head = readRange(img, 0, 8192);
    expect(probe(bufferReadAt(head), 4 * MiB)?.type).toBe('swap');
    const noLast = Buffer.from(head);
    noLast.writeUInt32LE(0, 1028);
    expect(probe(bufferReadAt(noLast), 4 * MiB)).toBeUndefined();
    // swapon refuses "swap area shorter than signature indicates"
    expect(probe(bufferReadAt(head), 4 * MiB - 1)).toBeUndefined();
    const badPages = Buffer.from(head);
    badPages.writeUInt32LE(1000, 1032);
    expect(probe(bufferReadAt(badPages), 4 * MiB)).toBeUndefined();
    expect(probe(bufferReadAt(head), 4095)).toBeUndefined();
  });
});
