// The META model over plain bytes: two Talos ADV copies at the start of the partition, the syslinux area at
// its end; which copy to believe when loading, and what to write back.
import { ADV_DATA_LENGTH, ADV_LENGTH, ADV_TLV_HEADER, advDataSize, decodeAdv, encodeAdv } from './adv.js';
import { MetaError } from './errors.js';
import { decodeSyslinux, encodeSyslinux, SYSLINUX_AREA } from './syslinux.js';
import { checkWritableTag, formatTag } from './tags.js';

/** META_SIZE is the size of upstream's META partition. */
export const META_SIZE = 1024 * 1024;
export const META_COPY1_AT = 0;
export const META_COPY2_AT = ADV_LENGTH;
/** the smallest partition that holds both copies and the syslinux area apart */
export const META_MIN_SIZE = 2 * ADV_LENGTH + SYSLINUX_AREA;

/** MetaParts are the three areas of a partition as bytes: each copy is one ADV block, syslinux its 1 KiB. */
export interface MetaParts {
  readonly copy1: Buffer;
  readonly copy2: Buffer;
  readonly syslinux: Buffer;
}

/** MetaContents is what a partition holds: the Talos ADV's tags and the syslinux area. */
export interface MetaContents {
  readonly talos: ReadonlyMap<number, Buffer>;
  readonly legacy: LegacyArea;
}

/** LegacyArea keeps the syslinux area's bytes as read, so a flush writes them back unchanged, as Talos does. */
export interface LegacyArea {
  readonly raw: Buffer;
  readonly tags: ReadonlyMap<number, Buffer>;
}

export const EMPTY_META: MetaContents = {
  talos: new Map(),
  legacy: { raw: Buffer.alloc(SYSLINUX_AREA), tags: new Map() },
};

/** MetaSource says where the tags came from; `blank` is a partition nothing was written to yet. */
export type MetaSource = 'copy1' | 'copy2' | 'syslinux' | 'blank';

export type AreaState =
  | { readonly state: 'valid' }
  | { readonly state: 'blank' }
  | { readonly state: 'damaged'; readonly error: MetaError };

export interface MetaReport {
  readonly source: MetaSource;
  readonly copy1: AreaState;
  readonly copy2: AreaState;
  readonly syslinux: AreaState;
  /** the Talos copies are not two equal valid blocks, and a write would make them so */
  readonly needsRepair: boolean;
}

export interface LoadedMeta {
  readonly contents: MetaContents;
  readonly report: MetaReport;
}

/** loadMeta picks copy 1, else copy 2, else the syslinux area; `where` names the partition in errors. */
export function loadMeta(parts: MetaParts, where = 'META'): LoadedMeta {
  const c1 = readArea(() => decodeAdv(parts.copy1, `${where} copy 1`), parts.copy1);
  const c2 = readArea(() => decodeAdv(parts.copy2, `${where} copy 2`), parts.copy2);
  const sl = readArea(() => decodeSyslinux(parts.syslinux, `${where} syslinux adv`), parts.syslinux);
  const legacy: LegacyArea = { raw: Buffer.from(parts.syslinux), tags: sl.tags ?? new Map() };

  const source: MetaSource | undefined = c1.tags
    ? 'copy1'
    : c2.tags
      ? 'copy2'
      : sl.tags
        ? 'syslinux'
        : // Copy 1 is written first: damage there over a blank copy 2 is a first write torn, and what it
          // replaced was an empty META.
          c2.state.state === 'blank' && sl.state.state === 'blank'
          ? 'blank'
          : undefined;
  if (!source) {
    const why = [c1, c2, sl].map((a) => (a.state.state === 'damaged' ? a.state.error.message : 'blank'));
    throw new MetaError('unreadable', `${where}: no valid copy (${why.join('; ')})`);
  }

  const damaged = c1.state.state === 'damaged' || c2.state.state === 'damaged';
  const unequal = Boolean(c1.tags && c2.tags && !parts.copy1.equals(parts.copy2));
  const oneBlank = Boolean(c1.tags) !== Boolean(c2.tags) && !damaged;
  return {
    contents: { talos: c1.tags ?? c2.tags ?? new Map(), legacy },
    report: {
      source,
      copy1: c1.state,
      copy2: c2.state,
      syslinux: sl.state,
      needsRepair: damaged || unequal || oneBlank,
    },
  };
}

/** marshalMeta gives the bytes to write: one ADV block for both copies, and the syslinux area. */
export function marshalMeta(c: MetaContents): MetaParts {
  const block = encodeAdv(c.talos);
  return { copy1: block, copy2: block, syslinux: c.legacy.raw };
}

/** metaTags is what a reader sees: the syslinux tags, with the Talos ADV's taking precedence. */
export function metaTags(c: MetaContents): Map<number, Buffer> {
  const all = new Map([...c.legacy.tags, ...c.talos]);
  return new Map([...all].sort(([a], [b]) => a - b));
}

/** withTag sets a tag in the Talos ADV, refusing what would not fit; the input is not changed. */
export function withTag(c: MetaContents, tag: number, value: string | Uint8Array): MetaContents {
  checkWritableTag(tag);
  const bytes = Buffer.from(typeof value === 'string' ? Buffer.from(value, 'utf8') : value);
  const talos = new Map(c.talos);
  talos.delete(tag);
  const others = advDataSize(talos);
  if (others + ADV_TLV_HEADER + bytes.length > ADV_DATA_LENGTH) {
    throw new MetaError(
      'too-large',
      `tag ${formatTag(tag)}: ${bytes.length} bytes (+${ADV_TLV_HEADER} header) do not fit: ` +
        `${others} of ${ADV_DATA_LENGTH} bytes are used by other tags`,
    );
  }
  talos.set(tag, bytes);
  return { ...c, talos };
}

/** withoutTag deletes a tag wherever it is; the same object comes back when it was nowhere. */
export function withoutTag(c: MetaContents, tag: number): MetaContents {
  checkWritableTag(tag);
  const inTalos = c.talos.has(tag);
  const inLegacy = c.legacy.tags.has(tag);
  if (!inTalos && !inLegacy) return c;
  const talos = new Map(c.talos);
  talos.delete(tag);
  if (!inLegacy) return { ...c, talos };
  // deleting from the syslinux area too, or the old value would show through again
  const tags = new Map(c.legacy.tags);
  tags.delete(tag);
  return { talos, legacy: { raw: encodeSyslinux(tags), tags } };
}

/** assembleMeta lays the parts out as a whole partition image of `size` bytes. */
export function assembleMeta(parts: MetaParts, size = META_SIZE): Buffer {
  checkSize(size, 'image');
  const image = Buffer.alloc(size);
  parts.copy1.copy(image, META_COPY1_AT);
  parts.copy2.copy(image, META_COPY2_AT);
  parts.syslinux.copy(image, size - SYSLINUX_AREA);
  return image;
}

/** splitMeta cuts a whole partition image into its parts (views, not copies). */
export function splitMeta(image: Buffer): MetaParts {
  checkSize(image.length, 'image');
  return {
    copy1: image.subarray(META_COPY1_AT, META_COPY1_AT + ADV_LENGTH),
    copy2: image.subarray(META_COPY2_AT, META_COPY2_AT + ADV_LENGTH),
    syslinux: image.subarray(image.length - SYSLINUX_AREA),
  };
}

/** checkSize refuses a partition too small for the three areas. */
export function checkSize(size: number, where: string): void {
  if (size < META_MIN_SIZE) {
    throw new MetaError('too-small', `${where}: ${size} bytes, META needs at least ${META_MIN_SIZE}`);
  }
}

interface AreaRead {
  readonly state: AreaState;
  readonly tags?: Map<number, Buffer>;
}

function readArea(decode: () => Map<number, Buffer>, bytes: Buffer): AreaRead {
  try {
    return { state: { state: 'valid' }, tags: decode() };
  } catch (e) {
    if (!(e instanceof MetaError)) throw e;
    return { state: isZero(bytes) ? { state: 'blank' } : { state: 'damaged', error: e } };
  }
}

const ZEROS = Buffer.alloc(ADV_LENGTH);
const isZero = (b: Buffer): boolean =>
  b.length <= ZEROS.length ? b.equals(ZEROS.subarray(0, b.length)) : b.every((x) => x === 0);
