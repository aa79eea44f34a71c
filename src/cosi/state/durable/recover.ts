// Recovery on open: snapshot plus logs replayed into the live record set, a torn log tail cut off.
import { type FileHandle, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { errCorrupt } from './errors.js';
import { createLog, fsyncDir, LOG_MAGIC, logGeneration, logName, SNAPSHOT, TMP_SUFFIX } from './files.js';
import { scanFrames, type TornTail } from './frame.js';
import { decodeRecord, RecordError, recordKey } from './record.js';
import { parseSnapshot } from './snapshot.js';

export interface Recovered {
  /** recordKey → encoded put record of every live resource, in first-write order */
  readonly entries: Map<string, Uint8Array>;
  readonly snapshotGen: number;
  /** the log new records are appended to, and its size */
  readonly activeGen: number;
  readonly active: FileHandle;
  readonly activeSize: number;
  /** records in the logs since the snapshot: what compaction would fold away */
  readonly logRecords: number;
  /** the unfinished write cut off the active log, if any */
  readonly torn?: TornTail & { readonly file: string };
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** ensureDir creates `dir` if needed, syncing the parent of every level it made so the entries survive a crash. */
async function ensureDir(dir: string): Promise<void> {
  const made = await mkdir(dir, { recursive: true });
  if (made === undefined) return;
  const first = resolve(made);
  for (let d = resolve(dir); ; d = dirname(d)) {
    await fsyncDir(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

function apply(entries: Map<string, Uint8Array>, bytes: Uint8Array, file: string, offset: number): void {
  let rec: ReturnType<typeof decodeRecord>;
  try {
    rec = decodeRecord(bytes);
  } catch (e) {
    if (e instanceof RecordError) throw errCorrupt(file, offset, e.message, e);
    throw e;
  }
  const key = recordKey({ namespace: rec.ns, type: rec.type, id: rec.id });
  // Copied, so the live set does not pin whole file buffers in memory.
  if (rec.op === 'put') entries.set(key, Uint8Array.prototype.slice.call(bytes));
  else entries.delete(key);
}

/** recover opens the store in `dir` (creating it when absent) and rebuilds its live records. */
export async function recover(dir: string, signal?: AbortSignal): Promise<Recovered> {
  await ensureDir(dir);
  const names = await readdir(dir);
  const entries = new Map<string, Uint8Array>();

  let snapshotGen = 0;
  const snapshotFile = join(dir, SNAPSHOT);
  try {
    const snap = parseSnapshot(await readFile(snapshotFile), snapshotFile);
    snapshotGen = snap.gen;
    for (const r of snap.records) apply(entries, r.bytes, snapshotFile, r.offset);
  } catch (e) {
    if (!isMissing(e)) throw e;
  }

  // Leftovers of an interrupted compaction: temp files, and logs the snapshot already holds.
  const logs: number[] = [];
  let removed = false;
  for (const name of names) {
    const gen = logGeneration(name);
    if (name.endsWith(TMP_SUFFIX) || (gen !== undefined && gen < snapshotGen)) {
      await unlink(join(dir, name));
      removed = true;
    } else if (gen !== undefined) logs.push(gen);
  }
  if (removed) await fsyncDir(dir);
  logs.sort((a, b) => a - b);

  if (logs.length === 0) {
    const active = await createLog(dir, snapshotGen);
    return {
      entries,
      snapshotGen,
      activeGen: snapshotGen,
      active,
      activeSize: LOG_MAGIC.length,
      logRecords: 0,
    };
  }
  if (logs[0] !== snapshotGen)
    throw errCorrupt(join(dir, logName(logs[0]!)), 0, `log ${logName(snapshotGen)} is missing before it`);

  let logRecords = 0;
  let torn: Recovered['torn'];
  let activeSize = 0;
  for (let i = 0; i < logs.length; i++) {
    signal?.throwIfAborted();
    const gen = logs[i]!;
    const file = join(dir, logName(gen));
    if (i > 0 && gen !== logs[i - 1]! + 1) throw errCorrupt(file, 0, `log ${logName(gen - 1)} is missing`);
    const buf = await readFile(file);
    if (buf.length < LOG_MAGIC.length || !buf.subarray(0, LOG_MAGIC.length).equals(LOG_MAGIC))
      throw errCorrupt(file, 0, 'not a log (bad magic)');
    const last = i === logs.length - 1;
    const scan = scanFrames(buf, LOG_MAGIC.length, file, last ? 'active' : 'sealed');
    for (const f of scan.frames) {
      for (const r of f.records) apply(entries, r, file, f.offset);
      logRecords += f.records.length;
    }
    if (scan.torn) torn = { ...scan.torn, file };
    if (last) activeSize = scan.end;
  }

  const activeGen = logs[logs.length - 1]!;
  const active = await open(join(dir, logName(activeGen)), 'r+');
  if (torn) {
    // Cut before anything is appended, or the next frame would sit behind garbage and read as damage.
    try {
      await active.truncate(activeSize);
      await active.datasync();
    } catch (e) {
      await active.close();
      throw e;
    }
  }
  return { entries, snapshotGen, activeGen, active, activeSize, logRecords, ...(torn ? { torn } : {}) };
}
