import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { bufferReadAt, expectAsBlkid, readRange, run, scratch, sparseFile, writeRange } from './tools.js';

const MiB = 1024 * 1024;
// mkfs.xfs 6.x refuses anything smaller; the file stays sparse
const XFS_MIN = 300 * MiB;

/** xfsDb reads superblock fields with xfs_db, the xfsprogs reference reader. */
function xfsDb(img: string, ...fields: string[]): Record<string, number> {
  const out = run('xfs_db', ['-r', '-c', 'sb 0', '-c', `p ${fields.join(' ')}`, img]);
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split(' = '))
      .map(([k, v]) => [k, Number(v)]),
  );
}

function makeXfs(args: readonly string[]): string {
  const img = sparseFile(scratch(), 'xfs.img', XFS_MIN);
  run('mkfs.xfs', ['-q', ...args, img]);
  return img;
}

describe('xfs', () => {
  it('reads a v5 superblock as blkid does, with the sizes xfs_db reports', () => {
    const uuid = '0f3c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const img = makeXfs(['-L', 'STATE', '-m', `uuid=${uuid}`]);
    const ours = probePath(img);
    const tags = expectAsBlkid(ours, img);
    expect([tags.LABEL, tags.UUID]).toEqual(['STATE', uuid]);
    const sb = xfsDb(img, 'blocksize', 'sectsize', 'dblocks', 'logstart', 'logblocks');
    expect(ours?.blockSize).toBe(sb.sectsize);
    expect(ours?.filesystemBlockSize).toBe(sb.blocksize);
    const log = sb.logstart !== 0 ? sb.logblocks! : 0;
    expect(ours?.probedSize).toBe((sb.dblocks! - log) * sb.blocksize!);
  });

  it('reads a v4 superblock, which has no checksum, and 4 KiB sectors', () => {
    const img = makeXfs(['-m', 'crc=0', '-s', 'size=4096', '-L', 'old']);
    const ours = probePath(img);
    expectAsBlkid(ours, img);
    expect(ours?.blockSize).toBe(xfsDb(img, 'sectsize').sectsize);
  });

  it('refuses a v5 superblock whose CRC no longer matches, as xfs_db judges it', () => {
    const img = makeXfs(['-L', 'STATE']);
    expect(probePath(img)?.type).toBe('xfs');
    expect(run('xfs_db', ['-r', '-c', 'sb 0', '-c', 'p crc', img])).toMatch(/\(correct\)/);
    const sb = readRange(img, 0, 512);
    sb[108] = 'X'.charCodeAt(0); // the label's first byte; the checksum is left as it was
    writeRange(img, 0, sb);
    expect(run('xfs_db', ['-r', '-c', 'sb 0', '-c', 'p crc', img])).toMatch(/\(bad\)/);
    // blkid 2.38 does not check the CRC (2.39 does) and would still say xfs; the kernel would not mount it
    expect(probePath(img)).toBeUndefined();
  });

  it('tells a filesystem whose mkfs never finished (sb_inprogress), as xfs_db writes the flag', () => {
    const img = makeXfs(['-L', 'EPHEMERAL']);
    expect(probePath(img)?.unfinished).toBeUndefined();
    // expert mode rewrites the superblock with a correct CRC, as a mkfs cut off midway leaves it
    run('xfs_db', ['-x', '-c', 'sb 0', '-c', 'write inprogress 1', img]);
    expect(xfsDb(img, 'inprogress').inprogress).toBe(1);
    const ours = probePath(img);
    expect(ours).toMatchObject({ type: 'xfs', label: 'EPHEMERAL', unfinished: true });
  });

  it('finds nothing in a superblock cut short by the end of the device', () => {
    const img = makeXfs([]);
    const head = readRange(img, 0, 4096);
    expect(probe(bufferReadAt(head), head.length)?.type).toBe('xfs');
    for (const size of [4, 100, 227, 511]) expect(probe(bufferReadAt(head), size)).toBeUndefined();
  });
});
