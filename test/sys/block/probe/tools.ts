// What the probe tests share: scratch directories that remove themselves, Debian's mkfs tools,
// blkid's own answer (parsed from `blkid -p -o export`) and byte sources built over buffers.
import { execFileSync, spawnSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import type { ProbeResult, ReadAt } from '../../../../src/sys/block/probe/index.js';

/** scratch makes a temporary directory that is removed when the current test ends, pass or fail. */
export function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-probe-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** sparseFile creates `name` in `dir` with `size` bytes and no data, as a disk image to format. */
export function sparseFile(dir: string, name: string, size: number): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** run runs a tool and fails with its stderr when it fails. */
export function run(cmd: string, args: readonly string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')}: ${err.stderr || err.message}`);
  }
}

/** parseBlkidExport reads KEY=value lines; export format escapes shell-special characters with '\'. */
export function parseBlkidExport(text: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) tags[line.slice(0, eq)] = line.slice(eq + 1).replace(/\\(.)/g, '$1');
  }
  return tags;
}

/** blkid is `blkid -p` (low-level probing, no cache): its tags, or undefined when it finds nothing (exit 2). */
export function blkid(path: string): Record<string, string> | undefined {
  const r = spawnSync('blkid', ['-p', '-o', 'export', path], { encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status === 2) return undefined;
  if (r.status !== 0) throw new Error(`blkid -p ${path}: exit ${r.status}: ${r.stderr}`);
  return parseBlkidExport(r.stdout);
}

/** expectAsBlkid checks TYPE, UUID and LABEL (and BLOCK_SIZE, SUBSYSTEM where blkid prints them). */
export function expectAsBlkid(ours: ProbeResult | undefined, path: string): Record<string, string> {
  const tags = blkid(path);
  if (!tags?.TYPE) throw new Error(`blkid finds no TYPE on ${path}`);
  expect(ours?.type, 'TYPE').toBe(tags.TYPE);
  expect(ours?.uuid, 'UUID').toBe(tags.UUID);
  expect(ours?.label, 'LABEL').toBe(tags.LABEL);
  if (tags.BLOCK_SIZE !== undefined) expect(ours?.blockSize, 'BLOCK_SIZE').toBe(Number(tags.BLOCK_SIZE));
  expect(ours?.subsystem, 'SUBSYSTEM').toBe(tags.SUBSYSTEM);
  return tags;
}

/** bufferReadAt reads from memory, short at the end as a device is. */
export const bufferReadAt =
  (buf: Buffer): ReadAt =>
  (offset, length) =>
    buf.subarray(Math.min(offset, buf.length), Math.min(offset + length, buf.length));

/** readRange reads `length` bytes of a file at `offset`. */
export function readRange(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(length);
    const n = readSync(fd, b, 0, length, offset);
    return b.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** writeRange overwrites bytes of a file in place (the test's own image). */
export function writeRange(path: string, offset: number, data: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, data, 0, data.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** noise is `size` pseudo-random bytes (AES-CTR keyed by the seed): the same for the same seed, so no test rests on luck. */
export function noise(size: number, seed: string): Buffer {
  const key = createHash('sha256').update(seed).digest();
  return createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(size));
}
