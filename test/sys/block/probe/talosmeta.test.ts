import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { blkid, bufferReadAt, scratch } from './tools.js';

const KiB = 1024;
const COPY = 256 * KiB;

/** meta lays out the two ADV copies' frames as Talos writes them (big-endian magics), contents left zero. */
function meta(copies: readonly (0 | 1)[], size = 1024 * KiB): Buffer {
  const b = Buffer.alloc(size);
  for (const c of copies) {
    b.writeUInt32BE(0x5a4b3c2d, c * COPY);
    b.writeUInt32BE(0xa5b4c3d2, c * COPY + COPY - 4);
  }
  return b;
}

describe('talosmeta', () => {
  it('recognises a META partition with both copies, reporting 512 KiB as upstream', () => {
    const b = meta([0, 1]);
    expect(probe(bufferReadAt(b), b.length)).toEqual({ type: 'talosmeta', probedSize: 512 * KiB });
  });

  it('recognises either copy alone, so a torn first copy still identifies the partition', () => {
    for (const copies of [[0], [1]] as const) {
      const b = meta(copies);
      expect(probe(bufferReadAt(b), b.length)?.type).toBe('talosmeta');
    }
  });

  it('needs both magics of a copy, in big-endian order', () => {
    const half = meta([0]);
    half.writeUInt32BE(0, COPY - 4);
    expect(probe(bufferReadAt(half), half.length)).toBeUndefined();
    const little = Buffer.alloc(1024 * KiB);
    little.writeUInt32LE(0x5a4b3c2d, 0);
    little.writeUInt32LE(0xa5b4c3d2, COPY - 4);
    expect(probe(bufferReadAt(little), little.length)).toBeUndefined();
  });

  it('needs the copy to fit on the device', () => {
    const b = meta([0, 1]);
    b.writeUInt32BE(0, 0); // only the second copy is left, and the device ends inside it
    expect(probe(bufferReadAt(b), COPY + 1024)).toBeUndefined();
  });

  it('is found through a file too; blkid does not know the type and reports none', () => {
    const img = join(scratch(), 'meta.img');
    writeFileSync(img, meta([0, 1]));
    expect(probePath(img)?.type).toBe('talosmeta');
    expect(blkid(img)?.TYPE).toBeUndefined();
  });
});
