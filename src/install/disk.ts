// The disk steps of an install: is the disk empty (upstream refuses one that is not, unless asked to wipe
// it), the partitions' device nodes once the kernel has the new table, and their contents (FAT for EFI,
// xfs for BOOT, zeroes for BIOS and META). Tools run through a ToolRunner the caller gives: on a node,
// PID 1's own spawner, whose children's statuses its reaper leaves alone.
import { execFile } from 'node:child_process';
import { readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type BlockFd, writeZeros } from '../sys/block/devices/index.js';
import { decodeMbr, isGptError, readGpt } from '../sys/block/gpt/index.js';
import { probeFd } from '../sys/block/probe/index.js';
import { InstallError } from './errors.js';
import type { PartitionContent, PlacedPartition } from './layout.js';

/** ToolRunner runs a program to its end and resolves with what it printed, or rejects when it fails with what it said. */
export type ToolRunner = (
  file: string,
  args: readonly string[],
  opts?: { readonly signal?: AbortSignal; readonly env?: Readonly<Record<string, string>> },
) => Promise<string>;

/** execTool runs a tool with Node's child_process: for hosts and tests, not for PID 1. */
export const execTool: ToolRunner = (file, args, opts = {}) =>
  new Promise((resolve, reject) => {
    const env = opts.env ? { ...process.env, ...opts.env } : process.env;
    execFile(file, args, { signal: opts.signal, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      reject(
        new InstallError('tool-failed', `${file} ${args.join(' ')}: ${stderr.trim() || err.message}`, {
          cause: err,
        }),
      );
    });
  });

/**
 * diskContents says what a disk holds, as upstream's installer checks before it partitions: a GPT (either
 * copy), an MBR partition table, or a filesystem or other volume at its start; undefined when empty.
 */
export async function diskContents(d: BlockFd, size: bigint): Promise<string | undefined> {
  try {
    const gpt = await readGpt(d.fd);
    return `a GPT with ${gpt.table.partitions.length} partition(s)`;
  } catch (e) {
    if (!isGptError(e)) throw e;
  }
  const volume = probeFd(d.fd, Number(size), { name: d.path });
  if (volume) return `a ${volume.type} volume${volume.label ? ` labelled ${volume.label}` : ''}`;
  const sector0 = Buffer.alloc(512);
  readSync(d.fd, sector0, 0, 512, 0);
  const mbr = decodeMbr(sector0);
  if (mbr.kind !== 'none') return `an MBR (${mbr.kind})`;
  return undefined;
}

/** partitionPath names a partition's node as the kernel does: sda → sda3, nvme0n1 → nvme0n1p3, loop0 → loop0p3. */
export function partitionPath(disk: string, number: number): string {
  return /\d$/.test(basename(disk)) ? `${disk}p${number}` : `${disk}${number}`;
}

/** waitForPartitions waits for the nodes of the new partitions (devtmpfs makes them as the kernel adds them). */
export async function waitForPartitions(
  disk: string,
  parts: readonly PlacedPartition[],
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Map<string, string>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  const paths = new Map(parts.map((p) => [p.label, partitionPath(disk, p.number)] as const));
  for (;;) {
    const missing = [...paths.values()].filter((p) => !isBlockDevice(p));
    if (missing.length === 0) return paths;
    if (Date.now() > deadline)
      throw new InstallError(
        'partition-missing',
        `${disk}: ${missing.join(', ')} did not appear after the table was written`,
      );
    await delay(20, undefined, { signal: opts.signal });
  }
}

const isBlockDevice = (p: string): boolean => {
  try {
    return statSync(p).isBlockDevice();
  } catch {
    return false;
  }
};

export interface FormatOptions {
  readonly run?: ToolRunner;
  readonly signal?: AbortSignal;
}

/**
 * fillPartition gives a partition its content: FAT32 labelled EFI, xfs labelled BOOT, or zeroes written
 * over the disk's descriptor (BIOS and META: no stale core.img or ADV survives a reinstall).
 */
export async function fillPartition(
  disk: BlockFd,
  part: PlacedPartition,
  path: string,
  content: PartitionContent,
  opts: FormatOptions = {},
): Promise<void> {
  const run = opts.run ?? execTool;
  const signal = opts.signal;
  switch (content) {
    case 'vfat':
      await run('mkfs.vfat', ['-F', '32', '-n', part.label, path], signal ? { signal } : {});
      return;
    case 'xfs':
      await run('mkfs.xfs', ['-f', '-q', '-L', part.label, path], signal ? { signal } : {});
      return;
    case 'zeroes':
      return writeZeros(disk, part.offsetBytes, part.sizeBytes, signal ? { signal } : {});
  }
}
