// Growing a mounted xfs: the room is read from the superblock (pure), and a real xfs on a loop device
// that gained 300 MiB grows into it while mounted, keeping its data; with no room, nothing runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  GROW_SLACK_BYTES,
  grownBlocks,
  growXfs,
  xfsDataBytes,
  xfsRoom,
} from '../../../../src/sys/block/mkfs/growfs.js';
import { isMkfsError } from '../../../../src/sys/block/mkfs/index.js';
import { mountedAt } from '../../../../src/sys/block/volume-mount.js';
import { attachLoop, sparseImage } from '../gpt/loop-device.js';

const MiB = 2 ** 20;

describe('xfs room', () => {
  it('reads blocksize × dblocks and ignores a tail too short to use', () => {
    const sb = Buffer.alloc(512);
    sb.write('XFSB', 0, 'latin1');
    sb.writeUInt32BE(4096, 4);
    sb.writeBigUInt64BE(76_800n, 8);
    expect(xfsDataBytes(sb)).toBe(300 * MiB);
    expect(() => xfsDataBytes(Buffer.alloc(512))).toThrow(/not an xfs superblock/);
    expect(xfsRoom(300 * MiB, 600 * MiB)).toBe(300 * MiB);
    expect(xfsRoom(300 * MiB, 300 * MiB + GROW_SLACK_BYTES - 1)).toBe(0);
    expect(xfsRoom(300 * MiB, 300 * MiB)).toBe(0);
    expect(grownBlocks('meta-data=…\ndata blocks changed from 76800 to 153600\n')).toBe(153_600);
    expect(grownBlocks('meta-data=…\n')).toBeUndefined();
  });
});

describe('growXfs on a loop device', () => {
  it('grows a mounted xfs into the room its device gained, and keeps its files', async () => {
    if (process.getuid?.() !== 0) throw new Error('needs root: loop devices and mount');
    const image = sparseImage(300 * MiB);
    const loop = attachLoop(image);
    execFileSync('mkfs.xfs', ['-q', '-f', loop.path]);
    const dir = mkdtempSync(join(tmpdir(), 'keel-grow-'));
    onTestFinished(() => {
      if (mountedAt(dir)) execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    });
    execFileSync('mount', [loop.path, dir]);
    writeFileSync(join(dir, 'kept'), 'before the grow');

    // nothing to gain: no program is started (a missing one would fail)
    expect(await growXfs(loop.path, dir, { program: '/nonexistent/xfs_growfs' })).toBeUndefined();

    truncateSync(image, 600 * MiB);
    execFileSync('losetup', ['-c', loop.path]);
    const grown = await growXfs(loop.path, dir);
    expect(grown?.from).toBe(300 * MiB);
    expect(grown?.to).toBeGreaterThan(600 * MiB - GROW_SLACK_BYTES);
    expect(grown?.to).toBeLessThanOrEqual(600 * MiB);
    const df = execFileSync('df', ['-B1', '--output=size', dir], { encoding: 'utf8' }).trim().split('\n')[1];
    expect(Number(df)).toBeGreaterThan(500 * MiB); // less the log and the metadata
    expect(readFileSync(join(dir, 'kept'), 'utf8')).toBe('before the grow');
  });

  it('fails with the reason xfs_growfs gives', async () => {
    if (process.getuid?.() !== 0) throw new Error('needs root: loop devices');
    const image = sparseImage(300 * MiB);
    const loop = attachLoop(image);
    execFileSync('mkfs.xfs', ['-q', '-f', loop.path]);
    truncateSync(image, 600 * MiB);
    execFileSync('losetup', ['-c', loop.path]);
    const dir = mkdtempSync(join(tmpdir(), 'keel-grow-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // not mounted there: xfs grows only while mounted
    const err = await growXfs(loop.path, dir).catch((e: unknown) => e);
    expect(isMkfsError(err)).toBe(true);
    expect((err as Error).message).toMatch(new RegExp(`^xfs_growfs ${dir}: \\S`));
  });
});
