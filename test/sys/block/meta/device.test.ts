// META on a real GPT partition: a loop device with its partitions scanned, sgdisk as the judge of the table.
// Lock facts from siderolabs/talos internal/pkg/meta and go-blockdevice: an exclusive flock on the parent
// disk, then LOCK_SH on the partition to read and LOCK_EX to write; Flush ends with fsync.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ADV_LENGTH,
  assembleMeta,
  EMPTY_META,
  encodeAdv,
  findParentDisk,
  isMetaError,
  loadMeta,
  META_SIZE,
  MetaTag,
  marshalMeta,
  metaTags,
  metaWritePlan,
  openMeta,
  SYSLINUX_AREA,
  splitMeta,
  withMetaLock,
  withTag,
} from '../../../../src/sys/block/meta/index.js';
import { funlock, tryFlock } from '../../../../src/sys/flock.js';
import { tagMap } from './fixtures.js';
import { gptLoopDisk } from './loop-disk.js';

const NETWORK = 'addresses:\n  - address: 192.0.2.10/24\n';

/** partitionStart reads where the kernel put p1, in bytes from the start of the disk. */
const partitionStart = (part: string): number =>
  Number(readFileSync(`/sys/class/block/${basename(part)}/start`, 'utf8')) * 512;

/** holdLock has another process hold a flock on `path` until the returned release is called. */
async function holdLock(mode: '-s' | '-x', path: string): Promise<() => Promise<void>> {
  const holder = spawn('flock', [mode, path, 'sh', '-c', 'echo locked; read x'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
  onTestFinished(() => {
    holder.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.once('data', () => resolve());
    holder.once('exit', (code) =>
      reject(new Error(`flock ${mode} ${path} exited with ${code} before locking`)),
    );
  });
  return async () => {
    holder.stdin.end('\n');
    await exited;
  };
}

describe('META write order', () => {
  it('leaves the previous contents or the new ones readable however far a write got, never going back', () => {
    const before = assembleMeta(marshalMeta(withTag(EMPTY_META, MetaTag.Upgrade, 'A')));
    const after = withTag(withTag(EMPTY_META, MetaTag.Upgrade, 'B'), MetaTag.UserReserved1, 'x'.repeat(5000));
    const img = Buffer.from(before);
    const seen: string[] = [];
    for (const { at, bytes } of metaWritePlan(marshalMeta(after), META_SIZE)) {
      // stop the step at several points, as a power cut would, then let it finish
      for (const cut of [0, 1, 4, 100, 4096, bytes.length / 2, bytes.length - 1, bytes.length]) {
        const torn = Buffer.from(img);
        bytes.copy(torn, at, 0, cut);
        const { contents } = loadMeta(splitMeta(torn));
        const upgrade = metaTags(contents).get(MetaTag.Upgrade)?.toString() ?? 'none';
        if (upgrade === 'B') expect(metaTags(contents)).toEqual(metaTags(after));
        else expect(upgrade).toBe('A');
        seen.push(upgrade);
      }
      bytes.copy(img, at);
    }
    // once a reader saw the new contents, none sees the old ones again; at the end both copies hold them
    expect(seen.join('')).toMatch(/^A+B+$/);
    expect(loadMeta(splitMeta(img)).report).toMatchObject({ source: 'copy1', needsRepair: false });
  });
});

describe('META on a GPT partition of a loop device', () => {
  it('finds the parent disk of a partition from sysfs, and none for the disk itself', async () => {
    const { disk, part } = await gptLoopDisk();
    expect(await findParentDisk(part)).toBe(disk);
    expect(await findParentDisk(disk)).toBeUndefined();
  });

  it('writes through the partition, reads back after reopening, and leaves the GPT intact', async () => {
    const { image, part } = await gptLoopDisk();
    const m = await openMeta(part);
    expect(m.source).toBe('blank');
    m.set(MetaTag.Upgrade, 'A');
    m.set(MetaTag.MetalNetworkPlatformConfig, NETWORK);
    expect(await m.flush()).toBe(true);

    const again = await openMeta(part);
    expect(again.source).toBe('copy1');
    expect(again.report.needsRepair).toBe(false);
    expect(again.tags).toEqual(
      tagMap({ [MetaTag.Upgrade]: 'A', [MetaTag.MetalNetworkPlatformConfig]: NETWORK }),
    );

    // the bytes landed where upstream's reader and prober look: copies at 0 and 256 KiB of the partition
    const disk = readFileSync(image);
    const at = partitionStart(part);
    const block = encodeAdv(again.tags);
    expect(disk.subarray(at, at + ADV_LENGTH).equals(block)).toBe(true);
    expect(disk.subarray(at + ADV_LENGTH, at + 2 * ADV_LENGTH).equals(block)).toBe(true);
    expect(
      disk.subarray(at + META_SIZE - SYSLINUX_AREA, at + META_SIZE).equals(Buffer.alloc(SYSLINUX_AREA)),
    ).toBe(true);
    // nothing outside the partition was touched
    expect(execFileSync('sgdisk', ['-v', image]).toString()).toMatch(/No problems found/);
    expect(disk.subarray(at + META_SIZE, at + META_SIZE + 4096).equals(Buffer.alloc(4096))).toBe(true);
  });

  it('recovers from a corrupt copy 1 through copy 2, and the next flush repairs copy 1', async () => {
    const { part } = await gptLoopDisk();
    const m = await openMeta(part);
    m.set(MetaTag.StagedUpgradeImageRef, 'ghcr.io/siderolabs/installer:v1.9.0');
    await m.flush();

    const fd = openSync(part, 'r+');
    writeSync(fd, Buffer.alloc(16, 0xff), 0, 16, 100);
    fsyncSync(fd);
    closeSync(fd);

    const hurt = await openMeta(part);
    expect(hurt.source).toBe('copy2');
    expect(hurt.report.copy1.state).toBe('damaged');
    expect(hurt.get(MetaTag.StagedUpgradeImageRef)?.toString()).toBe('ghcr.io/siderolabs/installer:v1.9.0');
    expect(await hurt.flush()).toBe(true);

    const healed = await openMeta(part);
    expect(healed.report).toMatchObject({ source: 'copy1', copy2: { state: 'valid' }, needsRepair: false });
  });

  it('makes a reader wait while a write holds the locks', async () => {
    const { disk, part } = await gptLoopDisk();
    await withMetaLock(part, 'write', {}, async () => {
      // another process asking for a shared lock on the partition waits, here until its own timeout
      expect(spawnSync('flock', ['-s', '-w', '0.3', part, 'true']).status).toBe(1);
      // a reader of our own waits on the parent disk first
      await expect(openMeta(part, { lockTimeoutMs: 300 })).rejects.toThrow(
        `${disk}: exclusive lock not taken within 300 ms`,
      );
    });
    expect(spawnSync('flock', ['-s', '-w', '10', part, 'true']).status).toBe(0);
  });

  it('waits for another process to release the partition, and stops waiting on abort', async () => {
    const { part } = await gptLoopDisk();
    const release = await holdLock('-x', part);
    let settled = false;
    const waiting = openMeta(part, { lockTimeoutMs: 20_000 }).finally(() => {
      settled = true;
    });
    const ctl = new AbortController();
    const aborted = openMeta(part, { signal: ctl.signal });
    ctl.abort(new Error('stop waiting'));
    await expect(aborted).rejects.toThrow('stop waiting');
    // while the lock is held the first reader cannot be done, however long this took
    expect(settled).toBe(false);
    await release();
    expect((await waiting).source).toBe('blank');
  });

  it('lets readers share the partition but keeps a writer out, and a flush with nothing to write takes no lock', async () => {
    const { part } = await gptLoopDisk();
    const release = await holdLock('-s', part);
    const m = await openMeta(part, { lockTimeoutMs: 300 });
    expect(await m.flush()).toBe(false);
    m.set(MetaTag.UserReserved1, 'x');
    const refused = m.flush();
    await expect(refused).rejects.toThrow(`${part}: exclusive lock not taken within 300 ms`);
    await expect(refused).rejects.toSatisfy((e) => isMetaError(e, 'lock-timeout'));
    await release();
    expect(m.dirty).toBe(true);
    expect(await m.flush()).toBe(true);
  });

  it('holds the parent disk exclusively while it reads, as udev and probes expect', async () => {
    const { disk, part } = await gptLoopDisk();
    const fd = openSync(disk, 'r');
    onTestFinished(() => closeSync(fd));
    await withMetaLock(part, 'read', {}, async () => {
      expect(tryFlock(fd, 'shared')).toBe(false);
    });
    expect(tryFlock(fd, 'shared')).toBe(true);
    funlock(fd);
  });
});
