// A META partition opened for use: its tags in memory, changed there, and flushed back only when needed.
import { type MetaIoOptions, readMetaParts, writeMetaParts } from './device.js';
import {
  loadMeta,
  type MetaContents,
  type MetaReport,
  type MetaSource,
  marshalMeta,
  metaTags,
  withoutTag,
  withTag,
} from './meta.js';

export interface MetaStore {
  readonly path: string;
  /** where the tags were loaded from */
  readonly source: MetaSource;
  /** what the load found in each area; after a flush, both copies are valid */
  readonly report: MetaReport;
  /** the tags as they are now, changes not yet flushed included */
  readonly tags: ReadonlyMap<number, Buffer>;
  /** unflushed changes are held */
  readonly dirty: boolean;
  get(tag: number): Buffer | undefined;
  /** set stores a value in memory; a value that does not fit throws at once and changes nothing */
  set(tag: number, value: string | Uint8Array): void;
  /** delete forgets a tag; false when it was not there */
  delete(tag: number): boolean;
  /**
   * flush writes the partition when something changed or a copy needs repair, and tells whether it wrote.
   * Like upstream's, it writes what this store holds: a concurrent writer's changes are overwritten.
   */
  flush(opts?: { signal?: AbortSignal }): Promise<boolean>;
}

/** openMeta reads a META partition (or image file) under a read lock and returns a store for it. */
export async function openMeta(path: string, opts: MetaIoOptions = {}): Promise<MetaStore> {
  const loaded = loadMeta(await readMetaParts(path, opts), path);
  let contents: MetaContents = loaded.contents;
  let written: MetaContents = contents;
  let report = loaded.report;
  let writing: Promise<unknown> = Promise.resolve();

  async function flushNow(signal: AbortSignal | undefined): Promise<boolean> {
    const snapshot = contents;
    if (snapshot === written && !report.needsRepair) return false;
    await writeMetaParts(path, marshalMeta(snapshot), { ...opts, signal });
    written = snapshot;
    report = {
      source: 'copy1',
      copy1: { state: 'valid' },
      copy2: { state: 'valid' },
      // a deleted syslinux tag re-encodes the area; otherwise it is written back as it was read
      syslinux: snapshot.legacy === loaded.contents.legacy ? report.syslinux : { state: 'valid' },
      needsRepair: false,
    };
    return true;
  }

  return {
    path,
    get source() {
      return report.source;
    },
    get report() {
      return report;
    },
    get tags() {
      return metaTags(contents);
    },
    get dirty() {
      return contents !== written;
    },
    get(tag) {
      return metaTags(contents).get(tag);
    },
    set(tag, value) {
      contents = withTag(contents, tag, value);
    },
    delete(tag) {
      const next = withoutTag(contents, tag);
      const had = next !== contents;
      contents = next;
      return had;
    },
    flush({ signal } = {}) {
      // one write at a time, each of what the store holds when its turn comes
      const turn = writing.then(() => flushNow(signal ?? opts.signal));
      writing = turn.catch(() => undefined);
      return turn;
    },
  };
}
