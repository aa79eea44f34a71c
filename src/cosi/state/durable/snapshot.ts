// Snapshots: every live record at one log generation, written whole or not at all.
import { errCorrupt } from './errors.js';
import { SNAPSHOT, SNAPSHOT_MAGIC, writeAtomically } from './files.js';
import { encodeFrame, scanFrames } from './frame.js';

/** Records per frame in a snapshot: large enough to amortize headers, small enough to stream. */
const FRAME_BYTES = 1024 * 1024;

interface SnapshotHead {
  /** the snapshot holds every log below this generation */
  readonly gen: number;
  readonly records: number;
}

// Layout: magic, a head frame (generation and record count), then frames of put records.
function* snapshotChunks(gen: number, records: readonly Uint8Array[]): Generator<Uint8Array> {
  yield SNAPSHOT_MAGIC;
  const head: SnapshotHead = { gen, records: records.length };
  yield encodeFrame([Buffer.from(JSON.stringify(head), 'utf8')]);
  let batch: Uint8Array[] = [];
  let bytes = 0;
  for (const r of records) {
    batch.push(r);
    bytes += r.length;
    if (bytes >= FRAME_BYTES) {
      yield encodeFrame(batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield encodeFrame(batch);
}

/** writeSnapshot replaces the snapshot of `dir` atomically. */
export async function writeSnapshot(
  dir: string,
  gen: number,
  records: readonly Uint8Array[],
  signal?: AbortSignal,
): Promise<void> {
  await writeAtomically(dir, SNAPSHOT, snapshotChunks(gen, records), signal);
}

export interface Snapshot {
  readonly gen: number;
  /** each record with the file offset of its frame, for error messages */
  readonly records: readonly { readonly offset: number; readonly bytes: Uint8Array }[];
}

/** parseSnapshot checks magic, every checksum and the record count: a snapshot is never torn. */
export function parseSnapshot(buf: Buffer, file: string): Snapshot {
  if (buf.length < SNAPSHOT_MAGIC.length || !buf.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC))
    throw errCorrupt(file, 0, 'not a snapshot (bad magic)');
  const { frames } = scanFrames(buf, SNAPSHOT_MAGIC.length, file, 'sealed');
  const [first, ...rest] = frames;
  if (first?.records.length !== 1) throw errCorrupt(file, SNAPSHOT_MAGIC.length, 'missing snapshot head');
  let head: SnapshotHead;
  try {
    head = JSON.parse(Buffer.from(first.records[0]!).toString('utf8')) as SnapshotHead;
  } catch (cause) {
    throw errCorrupt(file, first.offset, 'snapshot head is not JSON', cause);
  }
  if (!Number.isSafeInteger(head.gen) || head.gen < 0 || !Number.isSafeInteger(head.records))
    throw errCorrupt(file, first.offset, 'invalid snapshot head');
  const records = rest.flatMap((f) => f.records.map((bytes) => ({ offset: f.offset, bytes })));
  if (records.length !== head.records)
    throw errCorrupt(
      file,
      buf.length,
      `snapshot holds ${records.length} records, its head says ${head.records}`,
    );
  return { gen: head.gen, records };
}
