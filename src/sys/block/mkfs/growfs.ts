// Growing a mounted xfs into the room its device gained (a partition grown to fill the disk): xfs grows
// only while mounted, with xfs_growfs. Whether there is room is read from the superblock first, so a
// mount with nothing to gain costs one sector read, not a program's start.
import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { blockDeviceSize } from '../probe/index.js';
import { MkfsError, toolPath } from './index.js';

/** less room than this is not worth a grow: xfs leaves a tail shorter than its smallest group unused */
export const GROW_SLACK_BYTES = 2 ** 20;

/** xfsDataBytes is the data section's size from the superblock's first bytes: blocksize × dblocks. */
export function xfsDataBytes(sb: Buffer): number {
  if (sb.length < 16 || sb.toString('latin1', 0, 4) !== 'XFSB') throw new RangeError('not an xfs superblock');
  return Number(BigInt(sb.readUInt32BE(4)) * sb.readBigUInt64BE(8));
}

/** xfsRoom is how many bytes the device holds past the filesystem; 0 when not worth growing into. */
export const xfsRoom = (dataBytes: number, deviceBytes: number): number =>
  deviceBytes - dataBytes >= GROW_SLACK_BYTES ? deviceBytes - dataBytes : 0;

export interface GrowResult {
  /** the data section before and after, in bytes */
  readonly from: number;
  readonly to: number;
}

function sizes(device: string): { data: number; blockSize: number; device: number } {
  const fd = openSync(device, 'r');
  try {
    const sb = Buffer.alloc(512);
    readSync(fd, sb, 0, sb.length, 0);
    return { data: xfsDataBytes(sb), blockSize: sb.readUInt32BE(4), device: blockDeviceSize(fd) };
  } finally {
    closeSync(fd);
  }
}

/**
 * grownBlocks reads the new data block count from xfs_growfs's report ("data blocks changed from A to
 * B"): the device's own page cache may still hold the old superblock, which the filesystem rewrote.
 */
export function grownBlocks(report: string): number | undefined {
  const m = /data blocks changed from \d+ to (\d+)/.exec(report);
  return m ? Number(m[1]) : undefined;
}

/**
 * growXfs grows the xfs from `device`, mounted read-write at `target`, to fill the device; undefined when
 * there is no room worth it. A failure is a MkfsError with xfs_growfs's reason.
 */
export async function growXfs(
  device: string,
  target: string,
  opts: { readonly program?: string; readonly signal?: AbortSignal } = {},
): Promise<GrowResult | undefined> {
  const before = sizes(device);
  if (!xfsRoom(before.data, before.device)) return undefined;
  const program = opts.program ?? 'xfs_growfs';
  const report = await new Promise<string>((resolve, reject) => {
    execFile(
      program,
      ['-d', target],
      { signal: opts.signal, maxBuffer: 1 << 20, env: { PATH: toolPath(process.env.PATH) } },
      (err, stdout, stderr) => {
        if (!err) return resolve(String(stdout));
        if (opts.signal?.aborted) return reject(opts.signal.reason);
        const why = String(stderr).trim().split('\n')[0] || err.message;
        reject(new MkfsError(device, `${program} ${target}: ${why}`, { cause: err }));
      },
    );
  });
  const blocks = grownBlocks(report);
  return { from: before.data, to: blocks === undefined ? before.data : blocks * before.blockSize };
}
