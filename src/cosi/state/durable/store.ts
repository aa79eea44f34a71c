// DurableStore: a crash-safe BackingStore over one directory — a group-committed log plus snapshots.
import type { FileHandle } from 'node:fs/promises';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Namespace, Pointer } from '../../resource/kind.js';
import { pointerString } from '../../resource/kind.js';
import { defaultRegistry, type ResourceRegistry } from '../../resource/registry.js';
import type { Resource } from '../../resource/resource.js';
import type { BackingStore } from '../backing-store.js';
import type { SignalOptions } from '../core.js';
import { DurableStoreError } from './errors.js';
import { createLog, fsyncDir, LOG_MAGIC, logName, writeFully } from './files.js';
import { encodeFrame, HEADER_SIZE, MAX_FRAME, type TornTail } from './frame.js';
import { decodeRecord, encodeDestroy, encodePut, recordKey, resourceOf } from './record.js';
import { recover } from './recover.js';
import { writeSnapshot } from './snapshot.js';

export interface DurableStoreOptions {
  /** the store's own directory; created when absent; one open store per directory at a time */
  readonly dir: string;
  /** resolves stored type names to typed resources; unknown types load as OpaqueResource */
  readonly registry?: ResourceRegistry;
  /** fold the log into a new snapshot after this many records (default 4096) */
  readonly compactEvery?: number;
  /** when set, resources of any other namespace are refused (catches mis-wired namespaces) */
  readonly namespace?: Namespace;
  /** a background compaction failed; the logs stay, and the next trigger retries */
  readonly onCompactionError?: (e: unknown) => void;
}

export interface DurableStoreInfo {
  readonly dir: string;
  readonly opened: boolean;
  /** generation of the log being appended to */
  readonly generation: number;
  /** the snapshot holds every log below this generation (0: no snapshot yet) */
  readonly snapshotGeneration: number;
  readonly logBytes: number;
  readonly logRecords: number;
  readonly resources: number;
  readonly compactions: number;
  /** the unfinished write cut off the log when the store was opened */
  readonly recovered?: TornTail & { readonly file: string };
}

/** DurableStore is a BackingStore whose put/destroy resolve only once the change is on disk. */
export interface DurableStore extends BackingStore {
  /** compact folds the log into a new snapshot now and deletes the logs it replaces. */
  compact(opts?: SignalOptions): Promise<void>;
  info(): DurableStoreInfo;
  /** close waits for pending writes and compaction, then releases the files; later calls fail. */
  close(): Promise<void>;
}

export const DEFAULT_COMPACT_EVERY = 4096;
/** Writes queued while a sync runs share the next frame, up to this size. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

interface Pending {
  readonly key: string;
  /** a put record, or undefined for a destroy */
  readonly put: Uint8Array | undefined;
  readonly bytes: Uint8Array;
  resolve(): void;
  reject(e: unknown): void;
}

interface Rotation {
  resolve(compaction: Promise<void>): void;
  reject(e: unknown): void;
}

const noop = () => {};

/** newDurableStore returns at once; the directory is opened and replayed by the first operation. */
export function newDurableStore(opts: DurableStoreOptions): DurableStore {
  return new DurableStoreEngine(opts);
}

class DurableStoreEngine implements DurableStore {
  readonly #dir: string;
  readonly #registry: ResourceRegistry;
  readonly #compactEvery: number;
  readonly #namespace: Namespace | undefined;
  readonly #onCompactionError: (e: unknown) => void;

  #opening: Promise<void> | undefined;
  #log: FileHandle | undefined;
  /** encoded put record of every committed live resource */
  #entries = new Map<string, Uint8Array>();
  #gen = 0;
  #oldestGen = 0;
  #snapshotGen = 0;
  #size = 0;
  #logRecords = 0;
  #compactions = 0;
  #recovered: DurableStoreInfo['recovered'];

  #queue: Pending[] = [];
  #rotations: Rotation[] = [];
  #autoRotate = false;
  #pumping = false;
  #pumpDone: Promise<void> = Promise.resolve();
  #compaction: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** set when a sync failed: what reached the disk is unknown, so nothing more is written */
  #failed: DurableStoreError | undefined;

  constructor(opts: DurableStoreOptions) {
    const every = opts.compactEvery ?? DEFAULT_COMPACT_EVERY;
    if (!Number.isSafeInteger(every) || every < 1)
      throw new RangeError(`compactEvery must be a positive integer, got ${every}`);
    this.#dir = opts.dir;
    this.#registry = opts.registry ?? defaultRegistry;
    this.#compactEvery = every;
    this.#namespace = opts.namespace;
    this.#onCompactionError = opts.onCompactionError ?? noop;
  }

  async load(handler: (r: Resource) => void, opts?: SignalOptions): Promise<void> {
    await this.#ready(opts?.signal);
    let n = 0;
    for (const bytes of this.#entries.values()) {
      if ((++n & 0xff) === 0) opts?.signal?.throwIfAborted();
      const rec = decodeRecord(bytes);
      if (rec.op === 'put') handler(resourceOf(rec, this.#registry));
    }
  }

  async put(r: Resource, opts?: SignalOptions): Promise<void> {
    this.#checkNamespace(r.metadata);
    // Encoded before any await: the record is the resource as it was when put was called.
    const bytes = encodePut(r);
    if (bytes.length > MAX_FRAME - HEADER_SIZE - 4)
      throw new DurableStoreError(
        'unencodable',
        `resource ${pointerString(r.metadata)} is too large to store`,
      );
    await this.#ready(opts?.signal);
    return this.#enqueue(recordKey(r.metadata), bytes, bytes);
  }

  async destroy(ptr: Pointer, opts?: SignalOptions): Promise<void> {
    this.#checkNamespace(ptr);
    const bytes = encodeDestroy(ptr);
    await this.#ready(opts?.signal);
    return this.#enqueue(recordKey(ptr), undefined, bytes);
  }

  async compact(opts?: SignalOptions): Promise<void> {
    await this.#ready(opts?.signal);
    const compaction = await new Promise<Promise<void>>((resolve, reject) => {
      this.#rotations.push({ resolve, reject });
      this.#kick();
    });
    await compaction;
  }

  info(): DurableStoreInfo {
    return {
      dir: this.#dir,
      opened: this.#log !== undefined,
      generation: this.#gen,
      snapshotGeneration: this.#snapshotGen,
      logBytes: this.#size,
      logRecords: this.#logRecords,
      resources: this.#entries.size,
      compactions: this.#compactions,
      ...(this.#recovered ? { recovered: this.#recovered } : {}),
    };
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    await this.#opening?.catch(noop);
    // A finished compaction may restart the pump for a rotation that waited on it, hence the loop.
    for (;;) {
      if (this.#pumping) await this.#pumpDone;
      else if (this.#compaction) await this.#compaction.catch(noop);
      else break;
    }
    await this.#log?.close();
  }

  #checkNamespace(p: Pointer): void {
    if (this.#namespace !== undefined && p.namespace !== this.#namespace)
      throw new DurableStoreError(
        'foreign-namespace',
        `resource ${pointerString(p)} does not belong in the store of namespace ${JSON.stringify(this.#namespace)}`,
      );
  }

  #usable(): void {
    if (this.#closing) throw new DurableStoreError('closed', `durable store ${this.#dir} is closed`);
    if (this.#failed) throw this.#failed;
  }

  /**
   * #ready opens the store once and every concurrent caller shares the outcome. A failed open is
   * retried by the next call: damage fails again with the same report, a passing fault may heal.
   */
  async #ready(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    this.#usable();
    if (!this.#opening) {
      const opening = this.#open();
      this.#opening = opening;
      opening.catch(() => {
        if (this.#opening === opening) this.#opening = undefined;
      });
    }
    await this.#opening;
    // Checked again: once queued, a write is not withdrawn, so an abort counts only before this point.
    signal?.throwIfAborted();
    this.#usable();
  }

  async #open(): Promise<void> {
    const r = await recover(this.#dir);
    this.#entries = r.entries;
    this.#log = r.active;
    this.#gen = r.activeGen;
    this.#oldestGen = r.snapshotGen;
    this.#snapshotGen = r.snapshotGen;
    this.#size = r.activeSize;
    this.#logRecords = r.logRecords;
    this.#recovered = r.torn;
    if (this.#logRecords >= this.#compactEvery) {
      this.#autoRotate = true;
      this.#kick();
    }
  }

  #enqueue(key: string, put: Uint8Array | undefined, bytes: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ key, put, bytes, resolve, reject });
      this.#kick();
    });
  }

  #kick(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    this.#pumpDone = this.#pump();
  }

  /**
   * #pump is the only writer: batches and rotations run one at a time, in order. A due rotation
   * goes before the next batch, or a steady stream of writes would put compaction off forever;
   * it waits (without holding up writes) while the previous snapshot is still being written.
   */
  async #pump(): Promise<void> {
    for (;;) {
      if (this.#failed) {
        for (const p of this.#queue.splice(0)) p.reject(this.#failed);
        for (const r of this.#rotations.splice(0)) r.reject(this.#failed);
        break;
      }
      if (this.#rotationDue() && !this.#compaction) await this.#rotate();
      else if (this.#queue.length > 0) await this.#writeBatch(this.#takeBatch());
      else break;
    }
    // No await since the last emptiness check, so nothing was queued without a running pump.
    this.#pumping = false;
  }

  #rotationDue(): boolean {
    return this.#rotations.length > 0 || this.#autoRotate;
  }

  #takeBatch(): Pending[] {
    let bytes = 0;
    let n = 0;
    while (n < this.#queue.length && (n === 0 || bytes + this.#queue[n]!.bytes.length <= MAX_BATCH_BYTES)) {
      bytes += this.#queue[n]!.bytes.length;
      n++;
    }
    return this.#queue.splice(0, n);
  }

  async #writeBatch(batch: Pending[]): Promise<void> {
    const log = this.#log!;
    const file = join(this.#dir, logName(this.#gen));
    const frame = encodeFrame(batch.map((p) => p.bytes));
    const fail = (what: string, cause: unknown) => {
      const e = new DurableStoreError('io', `${what} ${file} failed`, file, undefined, { cause });
      for (const p of batch) p.reject(e);
      return e;
    };
    try {
      await writeFully(log, frame, this.#size);
    } catch (cause) {
      fail('writing', cause);
      try {
        // Cut the partial frame, so the next one follows good data and is not read as damage.
        await log.truncate(this.#size);
        await log.datasync();
      } catch (again) {
        this.#failed = new DurableStoreError('io', `repairing ${file} failed`, file, undefined, {
          cause: again,
        });
      }
      return;
    }
    try {
      await log.datasync();
    } catch (cause) {
      // After a failed sync the kernel may have dropped the pages: the file's content is unknown.
      this.#failed = fail('syncing', cause);
      return;
    }
    this.#size += frame.length;
    this.#logRecords += batch.length;
    for (const p of batch) {
      if (p.put) this.#entries.set(p.key, p.put);
      else this.#entries.delete(p.key);
    }
    for (const p of batch) p.resolve();
    if (this.#logRecords >= this.#compactEvery && !this.#compaction && !this.#closing)
      this.#autoRotate = true;
  }

  /**
   * #rotate starts a new log and folds the live set as of this instant into a snapshot in the
   * background. Only the pump calls it, between batches, so every record of the old log is already
   * in #entries; and never while a snapshot is being written, as both would use the same temp file.
   */
  async #rotate(): Promise<void> {
    const waiters = this.#rotations.splice(0);
    const auto = this.#autoRotate;
    this.#autoRotate = false;
    try {
      const gen = this.#gen + 1;
      const next = await createLog(this.#dir, gen);
      const prev = this.#log!;
      this.#log = next;
      this.#gen = gen;
      this.#size = LOG_MAGIC.length;
      this.#logRecords = 0;
      const live = [...this.#entries.values()];
      await prev.close().catch(noop); // everything in it was synced; closing cannot lose data
      const compaction = this.#fold(gen, live);
      this.#compaction = compaction;
      const settled = () => {
        this.#compaction = undefined;
        if (this.#rotationDue()) this.#kick();
      };
      void compaction.then(settled, (e) => {
        settled();
        if (auto) this.#onCompactionError(e);
      });
      for (const w of waiters) w.resolve(compaction);
    } catch (e) {
      for (const w of waiters) w.reject(e);
      if (auto && waiters.length === 0) this.#onCompactionError(e);
    }
  }

  async #fold(gen: number, records: readonly Uint8Array[]): Promise<void> {
    await writeSnapshot(this.#dir, gen, records);
    this.#snapshotGen = gen;
    this.#compactions++;
    // The snapshot holds every older log now; a crash before these unlinks only leaves them for open to remove.
    for (let g = this.#oldestGen; g < gen; g++) {
      await unlink(join(this.#dir, logName(g))).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
    this.#oldestGen = gen;
    await fsyncDir(this.#dir);
  }
}
