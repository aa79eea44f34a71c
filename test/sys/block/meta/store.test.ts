// The store over an image file: what openMeta reads, what flush writes and when. The same calls on a real
// partition, with its locks, are in device.test.ts.
import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ADV_LENGTH,
  assembleMeta,
  EMPTY_META,
  findParentDisk,
  isMetaError,
  META_SIZE,
  MetaTag,
  marshalMeta,
  openMeta,
  withTag,
} from '../../../../src/sys/block/meta/index.js';

function metaFile(size = META_SIZE): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-meta-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'meta.img');
  const fd = openSync(path, 'w');
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

describe('META store on an image file', () => {
  it('opens a blank file as an empty META and writes the image a flush should leave', async () => {
    const path = metaFile();
    expect(await findParentDisk(path)).toBeUndefined();
    const m = await openMeta(path, { parentPath: null });
    expect(m.source).toBe('blank');
    expect(m.tags.size).toBe(0);
    expect(m.dirty).toBe(false);
    m.set(MetaTag.Upgrade, 'A');
    m.set(MetaTag.UniqueMachineToken, Buffer.from([1, 2, 3]));
    expect(m.dirty).toBe(true);
    expect(await m.flush()).toBe(true);
    expect(m.dirty).toBe(false);
    expect(await m.flush()).toBe(false);

    const want = withTag(
      withTag(EMPTY_META, MetaTag.Upgrade, 'A'),
      MetaTag.UniqueMachineToken,
      Buffer.from([1, 2, 3]),
    );
    expect(readFileSync(path).equals(assembleMeta(marshalMeta(want)))).toBe(true);

    const again = await openMeta(path, { parentPath: null });
    expect(again.source).toBe('copy1');
    expect(again.get(MetaTag.Upgrade)?.toString()).toBe('A');
    expect(again.get(MetaTag.UniqueMachineToken)).toEqual(Buffer.from([1, 2, 3]));
  });

  it('repairs a damaged copy on the next flush, even with nothing changed', async () => {
    const path = metaFile();
    const m = await openMeta(path, { parentPath: null });
    m.set(MetaTag.DownloadURLCode, 'c0de');
    await m.flush();
    const img = readFileSync(path);
    img[ADV_LENGTH + 50]! ^= 0xff;
    writeFileSync(path, img);

    const hurt = await openMeta(path, { parentPath: null });
    expect(hurt.source).toBe('copy1');
    expect(hurt.report.needsRepair).toBe(true);
    expect(await hurt.flush()).toBe(true);
    const healed = await openMeta(path, { parentPath: null });
    expect(healed.report).toMatchObject({ source: 'copy1', copy2: { state: 'valid' }, needsRepair: false });
  });

  it('refuses a bad tag or a value too large at once, keeping what it held', async () => {
    const m = await openMeta(metaFile(), { parentPath: null });
    expect(() => m.set(1, 'x')).toThrow('tag 0x01: reserved for syslinux');
    expect(() => m.set(MetaTag.UserReserved1, Buffer.alloc(ADV_LENGTH))).toThrow(/tag 0x0c: 262144 bytes/);
    expect(m.dirty).toBe(false);
    expect(m.delete(MetaTag.Upgrade)).toBe(false);
    expect(m.dirty).toBe(false);
    m.set(MetaTag.Upgrade, 'A');
    expect(m.delete(MetaTag.Upgrade)).toBe(true);
  });

  it('runs flushes one at a time, each writing what the store holds when its turn comes', async () => {
    const path = metaFile();
    const m = await openMeta(path, { parentPath: null });
    m.set(MetaTag.UserReserved1, '1');
    const first = m.flush();
    m.set(MetaTag.UserReserved1, '2');
    const second = m.flush();
    // the first turn already sees '2', so the second has nothing left to write
    expect(await Promise.all([first, second])).toEqual([true, false]);
    expect((await openMeta(path, { parentPath: null })).get(MetaTag.UserReserved1)?.toString()).toBe('2');
  });

  it('names the path that is too small or not a disk or file', async () => {
    const small = metaFile(512 * 1024);
    await expect(openMeta(small, { parentPath: null })).rejects.toThrow(
      `${small}: 524288 bytes, META needs at least 525312`,
    );
    await expect(openMeta('/dev/null')).rejects.toSatisfy((e) => isMetaError(e, 'bad-path'));
  });

  it('names the file and every area when nothing in it is META', async () => {
    const path = metaFile();
    writeFileSync(path, Buffer.alloc(META_SIZE, 0x42));
    await expect(openMeta(path, { parentPath: null })).rejects.toThrow(
      new RegExp(`^${path}: no valid copy \\(${path} copy 1: magic1 is 0x42424242`),
    );
  });
});
