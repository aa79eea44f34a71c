import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { bufferReadAt, expectAsBlkid, readRange, run, scratch } from './tools.js';

/** unsquashfsStat reads the superblock summary squashfs-tools prints. */
function unsquashfsStat(img: string): { bytes: number; blockSize: number } {
  const out = run('unsquashfs', ['-s', img]);
  return {
    bytes: Number(/Filesystem size (\d+) bytes/.exec(out)?.[1]),
    blockSize: Number(/Block size (\d+)/.exec(out)?.[1]),
  };
}

function mksquashfs(args: readonly string[]): string {
  const dir = scratch();
  const src = join(dir, 'root');
  mkdirSync(join(src, 'etc'), { recursive: true });
  writeFileSync(join(src, 'etc', 'os-release'), 'NAME=Keel\n');
  const img = join(dir, 'rootfs.sqsh');
  run('mksquashfs', [src, img, '-quiet', '-noappend', ...args]);
  return img;
}

describe('squashfs on real images', () => {
  it.each([[[]], [['-b', '4096', '-comp', 'xz']], [['-b', '1M']]])(
    'is found as blkid finds it, with the sizes unsquashfs reports (%j)',
    (args) => {
      const img = mksquashfs(args);
      const ours = probePath(img);
      expectAsBlkid(ours, img);
      const st = unsquashfsStat(img);
      expect(ours).toMatchObject({
        blockSize: st.blockSize,
        filesystemBlockSize: st.blockSize,
        probedSize: st.bytes,
      });
    },
  );

  it('finds nothing when the block size and its log disagree, or the superblock is cut short', () => {
    const img = mksquashfs([]);
    const head = readRange(img, 0, 4096);
    expect(probe(bufferReadAt(head), head.length)?.type).toBe('squashfs');
    const bad = Buffer.from(head);
    bad.writeUInt16LE(bad.readUInt16LE(22) + 1, 22);
    expect(probe(bufferReadAt(bad), bad.length)).toBeUndefined();
    expect(probe(bufferReadAt(head), 95)).toBeUndefined();
  });
});
