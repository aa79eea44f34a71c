// The start trace of machined's executable: in which order a start of machined, up to its first API
// answer, first touches the executable's pages (64 KiB windows, by virtual address) and the other files
// it maps (koffi's addon). scripts/start-trace.ts records one from the page faults of a real start; the
// root filesystem's build turns the trace of the node its executable is made from (matched by GNU build
// id, and by a digest of the trimmed ICU data in it) into stage 1's read-ahead plan (read-ahead.ts), so the read-ahead child decompresses the blocks
// of the squashfs in the order the start needs them, and no others.
//
// Windows are virtual addresses, not file offsets: the single executable keeps node's segments at their
// addresses, but stripping and the added blob move their bytes within the file.
import { type LoadSegment, vaddrOf } from './elf-layout.js';

/** the trace's unit: the kernel maps up to 64 KiB of cached pages around a page fault (fault-around) */
export const TRACE_WINDOW = 64 * 1024;

export type TraceEntry = { readonly window: number } | { readonly file: string };

/**
 * What a trace is valid for: the node build (its build id) and the ICU data in it (icuDataDigest), which
 * the SEA build trims; a trim that keeps other items moves the ones the start reads.
 */
export interface TraceKey {
  /** NT_GNU_BUILD_ID of the traced executable, lowercase hex */
  readonly buildId: string;
  /** the ICU data's digest (icu-symbol.ts), or "none" */
  readonly icuData: string;
}

export interface StartTrace extends TraceKey {
  /** first touches, in order; each window and file at most once */
  readonly entries: readonly TraceEntry[];
}

export class StartTraceError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
    this.name = 'StartTraceError';
  }
}

/**
 * renderStartTrace writes a trace as text: `#` comments, `build-id HEX`, `icu-data HEX|none`, then
 * `window 0xADDR` and `file /PATH`.
 */
export function renderStartTrace(trace: StartTrace, comment: readonly string[]): string {
  const lines = [...comment.map((c) => `# ${c}`), `build-id ${trace.buildId}`, `icu-data ${trace.icuData}`];
  for (const e of trace.entries)
    lines.push('window' in e ? `window 0x${e.window.toString(16)}` : `file ${e.file}`);
  return lines.map((l) => `${l}\n`).join('');
}

/** parseStartTrace reads renderStartTrace's text; `source` names it in errors (with the line). */
export function parseStartTrace(text: string, source: string): StartTrace {
  let buildId: string | undefined;
  let icuData: string | undefined;
  const entries: TraceEntry[] = [];
  const windows = new Set<number>();
  const files = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    const where = `${source}:${i + 1}`;
    if (line === '' || line.startsWith('#')) return;
    const [kind, value, ...rest] = line.split(/\s+/);
    if (value === undefined || rest.length)
      throw new StartTraceError(where, `expected "<kind> <value>", got ${JSON.stringify(line)}`);
    if (kind === 'build-id') {
      if (buildId !== undefined) throw new StartTraceError(where, 'a second build-id');
      if (!/^[0-9a-f]{2,}$/.test(value))
        throw new StartTraceError(where, `build-id ${value} is not lowercase hex`);
      buildId = value;
    } else if (kind === 'icu-data') {
      if (icuData !== undefined) throw new StartTraceError(where, 'a second icu-data');
      if (!/^([0-9a-f]{16}|none)$/.test(value))
        throw new StartTraceError(where, `icu-data ${value} is neither 16 lowercase hex digits nor none`);
      icuData = value;
    } else if (buildId === undefined || icuData === undefined) {
      throw new StartTraceError(where, 'entries before the build-id and icu-data lines');
    } else if (kind === 'window') {
      const window = /^0x[0-9a-f]+$/.test(value) ? Number.parseInt(value.slice(2), 16) : Number.NaN;
      if (!Number.isSafeInteger(window) || window % TRACE_WINDOW !== 0)
        throw new StartTraceError(
          where,
          `window ${value} is not a hex address aligned to ${TRACE_WINDOW} bytes`,
        );
      if (windows.has(window)) throw new StartTraceError(where, `window ${value} appears twice`);
      windows.add(window);
      entries.push({ window });
    } else if (kind === 'file') {
      if (!value.startsWith('/')) throw new StartTraceError(where, `file ${value} is not an absolute path`);
      if (files.has(value)) throw new StartTraceError(where, `file ${value} appears twice`);
      files.add(value);
      entries.push({ file: value });
    } else {
      throw new StartTraceError(
        where,
        `unknown entry kind ${JSON.stringify(kind)} (build-id, icu-data, window, file)`,
      );
    }
  });
  if (buildId === undefined) throw new StartTraceError(source, 'no build-id line');
  if (icuData === undefined)
    throw new StartTraceError(source, 'no icu-data line (a trace from before it was kept: make start-trace)');
  return { buildId, icuData, entries };
}

interface Mapping {
  readonly start: number;
  readonly end: number;
  readonly pgoff: number;
  readonly path: string;
}

const MMAP =
  /^\s*(\d+)\s+[\d.]+:\s+PERF_RECORD_MMAP2?\s+\d+\/\d+:\s+\[0x([0-9a-f]+)\(0x([0-9a-f]+)\)\s+@\s+(0x[0-9a-f]+|0)\s.*\]:\s+\S+\s+(.+)$/;
const FAULT = /^\s*(\d+)\s+[\d.]+:\s+(?:minor|major)-faults:\s+([0-9a-f]+)\s*$/;

export interface TracedFiles {
  /** the traced executable's path as perf saw it, and its segments */
  readonly exe: { readonly path: string; readonly loads: readonly LoadSegment[] };
  /** other files worth a place in the order: the path perf saw → the path in the image */
  readonly others: ReadonlyMap<string, string>;
}

/**
 * traceFromPerfScript reads `perf script --show-mmap-events -F pid,time,event,addr` of page-fault samples
 * (taken with -d, so each carries the faulting address), in time order, and keeps each first touch: of a
 * window of the executable (by virtual address), or of another file named in `files.others`.
 */
export function traceFromPerfScript(text: string, files: TracedFiles, key: TraceKey): StartTrace {
  const maps = new Map<number, Mapping[]>();
  const entries: TraceEntry[] = [];
  const seenWindows = new Set<number>();
  const seenFiles = new Set<string>();
  for (const line of text.split('\n')) {
    const m = MMAP.exec(line);
    if (m) {
      const pid = Number(m[1]);
      const start = Number.parseInt(m[2]!, 16);
      const mapping = {
        start,
        end: start + Number.parseInt(m[3]!, 16),
        pgoff: Number(m[4]),
        path: m[5]!.trim(),
      };
      // a later mapping of the same range replaces the earlier one: search newest first
      const list = maps.get(pid) ?? [];
      list.unshift(mapping);
      maps.set(pid, list);
      continue;
    }
    const f = FAULT.exec(line);
    if (!f) continue;
    const addr = Number.parseInt(f[2]!, 16);
    const hit = maps.get(Number(f[1]))?.find((mp) => addr >= mp.start && addr < mp.end);
    if (!hit) continue;
    if (hit.path === files.exe.path) {
      const vaddr = vaddrOf(files.exe.loads, hit.pgoff + (addr - hit.start));
      if (vaddr === undefined) continue; // bytes no segment loads from the file (.bss)
      const window = vaddr - (vaddr % TRACE_WINDOW);
      if (seenWindows.has(window)) continue;
      seenWindows.add(window);
      entries.push({ window });
    } else {
      const file = files.others.get(hit.path);
      if (file === undefined || seenFiles.has(file)) continue;
      seenFiles.add(file);
      entries.push({ file });
    }
  }
  return { ...key, entries };
}
