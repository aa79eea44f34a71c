// The two-copy model over bytes. Upstream facts it rests on: Talos's loader tries copy 1, then copy 2 on any
// decode error (go-adv talos.NewADV); a reader falls back to the syslinux ADV for tags the Talos ADV lacks,
// and Flush writes the syslinux bytes back as they were read (talos internal/pkg/meta/meta.go).
import { describe, expect, it } from 'vitest';
import {
  ADV_DATA_LENGTH,
  ADV_LENGTH,
  assembleMeta,
  EMPTY_META,
  encodeAdv,
  encodeSyslinux,
  isMetaError,
  loadMeta,
  META_SIZE,
  type MetaContents,
  type MetaParts,
  MetaTag,
  marshalMeta,
  metaTags,
  SYSLINUX_AREA,
  splitMeta,
  withoutTag,
  withTag,
} from '../../../../src/sys/block/meta/index.js';
import { seeded, tagMap } from './fixtures.js';

const TAGS = tagMap({ [MetaTag.Upgrade]: 'A', [MetaTag.MetalNetworkPlatformConfig]: 'addresses: []' });

/** image builds a whole 1 MiB partition from tags, the way a flush leaves it. */
function image(tags = TAGS, legacy: Buffer = Buffer.alloc(SYSLINUX_AREA)): Buffer {
  return assembleMeta(marshalMeta({ talos: tags, legacy: { raw: legacy, tags: new Map() } }));
}

const load = (img: Buffer) => loadMeta(splitMeta(img), '/dev/sdz3');

describe('META load', () => {
  it('reads copy 1 of an intact partition', () => {
    const { contents, report } = load(image());
    expect(metaTags(contents)).toEqual(TAGS);
    expect(report).toMatchObject({ source: 'copy1', copy2: { state: 'valid' }, needsRepair: false });
  });

  it('reads a blank partition as an empty META', () => {
    const { contents, report } = load(Buffer.alloc(META_SIZE));
    expect(metaTags(contents).size).toBe(0);
    expect(report).toMatchObject({ source: 'blank', copy1: { state: 'blank' }, needsRepair: false });
  });

  it('uses copy 2 when copy 1 has a bad magic', () => {
    const img = image();
    img.writeUInt32BE(0x12345678, 0);
    const { contents, report } = load(img);
    expect(metaTags(contents)).toEqual(TAGS);
    expect(report.source).toBe('copy2');
    expect(report.needsRepair).toBe(true);
    expect(report.copy1.state === 'damaged' && report.copy1.error.code).toBe('bad-magic');
  });

  it('uses copy 2 when a bit of copy 1 flipped', () => {
    const img = image();
    img[100]! ^= 1;
    const { report } = load(img);
    expect(report.source).toBe('copy2');
    expect(report.copy1.state === 'damaged' && report.copy1.error.message).toMatch(
      /^\/dev\/sdz3 copy 1: sha256 at 0x3ffdc does not match/,
    );
  });

  it('falls back to the syslinux area when both copies are damaged', () => {
    const img = image(TAGS, encodeSyslinux(tagMap({ 1: 'once', [MetaTag.Upgrade]: 'B' })));
    img[100]! ^= 1;
    img[ADV_LENGTH + 100]! ^= 1;
    const { contents, report } = load(img);
    expect(report.source).toBe('syslinux');
    expect(metaTags(contents)).toEqual(tagMap({ 1: 'once', [MetaTag.Upgrade]: 'B' }));
  });

  it('names the partition and every area when nothing is valid', () => {
    const img = image(TAGS, Buffer.alloc(SYSLINUX_AREA, 0xee));
    img[100]! ^= 1;
    img.fill(0xff, ADV_LENGTH, ADV_LENGTH + 4);
    try {
      load(img);
      expect.unreachable();
    } catch (e) {
      expect(isMetaError(e, 'unreadable')).toBe(true);
      expect((e as Error).message).toMatch(
        /^\/dev\/sdz3: no valid copy \(\/dev\/sdz3 copy 1: sha256 .*; \/dev\/sdz3 copy 2: magic1 is 0xffffffff.*; \/dev\/sdz3 syslinux adv sector 0: head 0xeeeeeeee/,
      );
    }
  });

  it('reads a first write torn in copy 1 as the empty META it replaced', () => {
    const img = Buffer.alloc(META_SIZE);
    encodeAdv(TAGS).copy(img, 0, 0, 1000); // the first 1000 bytes reached the disk, nothing after them
    const { contents, report } = load(img);
    expect(metaTags(contents).size).toBe(0);
    expect(report).toMatchObject({ source: 'blank', needsRepair: true });
  });

  it('sees the previous contents or the new ones across a write torn in either copy', () => {
    const before = image(tagMap({ [MetaTag.Upgrade]: 'A' }));
    const after = marshalMeta({ ...EMPTY_META, talos: tagMap({ [MetaTag.Upgrade]: 'B' }) });
    // copy 1 half written: copy 2 still holds the previous contents
    const torn1 = Buffer.from(before);
    after.copy1.copy(torn1, 0, 0, ADV_LENGTH / 2);
    expect(metaTags(load(torn1).contents).get(MetaTag.Upgrade)?.toString()).toBe('A');
    // copy 1 written and synced, copy 2 half written: copy 1 holds the new ones
    const torn2 = Buffer.from(before);
    after.copy1.copy(torn2, 0);
    after.copy2.copy(torn2, ADV_LENGTH, 0, ADV_LENGTH / 2);
    expect(metaTags(load(torn2).contents).get(MetaTag.Upgrade)?.toString()).toBe('B');
    // copy 1 written, copy 2 not yet touched: copy 1 wins, and the stale copy 2 asks for a repair
    const stale = Buffer.from(before);
    after.copy1.copy(stale, 0);
    expect(load(stale).report).toMatchObject({ source: 'copy1', needsRepair: true });
  });

  it('refuses an image too small for both copies and the syslinux area', () => {
    expect(() => splitMeta(Buffer.alloc(2 * ADV_LENGTH))).toThrow(
      /image: 524288 bytes, META needs at least 525312/,
    );
  });

  it('always decodes the same tags, from copy 2, whatever bytes of copy 1 are flipped', () => {
    const r = seeded(2024);
    const good = image();
    for (let round = 0; round < 300; round++) {
      const img = Buffer.from(good);
      for (let n = 1 + r.int(8); n > 0; n--) {
        // mostly the used start and the sealed end, where a flip most often still parses
        const at =
          r.int(3) === 0 ? r.int(64) : r.int(3) === 0 ? ADV_LENGTH - 1 - r.int(40) : r.int(ADV_LENGTH);
        img[at]! ^= 1 + r.int(255);
      }
      const { contents, report } = load(img);
      expect(metaTags(contents)).toEqual(TAGS);
      expect(report.source).toBe('copy2');
    }
  });
});

describe('META changes', () => {
  const loaded = (legacy: Map<number, Buffer>): MetaContents =>
    load(image(TAGS, encodeSyslinux(legacy))).contents;

  it('gives Talos tags precedence over syslinux ones and shows syslinux-only tags', () => {
    const c = loaded(tagMap({ [MetaTag.Upgrade]: 'old', [MetaTag.DownloadURLCode]: 'c0de' }));
    expect(metaTags(c)).toEqual(
      tagMap({
        [MetaTag.Upgrade]: 'A',
        [MetaTag.MetalNetworkPlatformConfig]: 'addresses: []',
        [MetaTag.DownloadURLCode]: 'c0de',
      }),
    );
  });

  it('writes the syslinux area back as read, damaged bytes included, until one of its tags is deleted', () => {
    const garbage = Buffer.alloc(SYSLINUX_AREA, 0x5c);
    const c = load(image(TAGS, garbage)).contents;
    expect(marshalMeta(withTag(c, MetaTag.UserReserved1, 'x')).syslinux.equals(garbage)).toBe(true);

    const withLegacy = loaded(tagMap({ [MetaTag.Upgrade]: 'old', [MetaTag.DownloadURLCode]: 'c0de' }));
    const gone = withoutTag(withLegacy, MetaTag.Upgrade);
    // deleted from both, so the syslinux value does not show through
    expect(metaTags(gone).has(MetaTag.Upgrade)).toBe(false);
    const parts: MetaParts = marshalMeta(gone);
    expect(parts.syslinux.equals(encodeSyslinux(tagMap({ [MetaTag.DownloadURLCode]: 'c0de' })))).toBe(true);
  });

  it('writes both copies identical', () => {
    const parts = marshalMeta(
      withTag(EMPTY_META, MetaTag.UUIDOverride, '00000000-0000-0000-0000-000000000001'),
    );
    expect(parts.copy1.equals(parts.copy2)).toBe(true);
  });

  it('returns the same contents when deleting an absent tag, and never changes its input', () => {
    const c = load(image()).contents;
    expect(withoutTag(c, MetaTag.UserReserved3)).toBe(c);
    const next = withTag(c, MetaTag.Upgrade, 'B');
    expect(c.talos.get(MetaTag.Upgrade)?.toString()).toBe('A');
    expect(next.talos.get(MetaTag.Upgrade)?.toString()).toBe('B');
  });

  it('refuses reserved tags and values that do not fit, naming the tag and the sizes', () => {
    expect(() => withTag(EMPTY_META, 0, 'x')).toThrow('tag 0x00: reserved as the end marker');
    expect(() => withTag(EMPTY_META, 2, 'x')).toThrow('tag 0x02: reserved for syslinux');
    expect(() => withoutTag(EMPTY_META, 1)).toThrow('tag 0x01: reserved for syslinux');
    expect(() => withTag(EMPTY_META, 300, 'x')).toThrow('tag 300: not a u8');

    const big = withTag(EMPTY_META, MetaTag.UserReserved1, Buffer.alloc(200_000));
    expect(() => withTag(big, MetaTag.UserReserved2, Buffer.alloc(62_097))).toThrow(
      'tag 0x0d: 62097 bytes (+8 header) do not fit: 200008 of 262104 bytes are used by other tags',
    );
    // replacing a tag's value counts only the others
    const full = withTag(big, MetaTag.UserReserved1, Buffer.alloc(ADV_DATA_LENGTH - 8));
    expect(full.talos.get(MetaTag.UserReserved1)?.length).toBe(ADV_DATA_LENGTH - 8);
    expect(() => marshalMeta(full)).not.toThrow();
  });
});
