// Once PID 1 idles, the pages only its start needed go back to the system: the C heap's free pages, and
// the executable's file pages (most of Node's 88 MB binary is touched once while it boots and never
// again). Clean file pages cost nothing to drop: one that is used again is read back from the squashfs.
import { readFileSync, realpathSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MADV_PAGEOUT, madvise, mallocTrim } from '../sys/memory.js';

export interface Mapping {
  readonly start: bigint;
  readonly end: bigint;
  readonly path: string;
}

/** parseMaps reads /proc/<pid>/maps lines (pure). */
export function parseMaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s+(\S.*)$/.exec(line);
    if (m) out.push({ start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), path: m[3]! });
  }
  return out;
}

/** residentBytes is this process's resident set from /proc/self/statm. */
export function residentBytes(): number {
  const pages = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]);
  return pages * PAGE_SIZE;
}

const PAGE_SIZE = 4096;

export interface TrimResult {
  /** executable mappings advised */
  readonly mappings: number;
  readonly residentBefore: number;
  readonly residentAfter: number;
}

let gc: (() => void) | undefined;

/**
 * fullGc runs a full, compacting collection, so the JS heap gives back what the start allocated and
 * dropped. The flag only exposes the `gc` function; it changes nothing else about the collector.
 */
function fullGc(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** trimStartupMemory collects the JS heap, trims the C heap and pages out this executable's mappings. */
export function trimStartupMemory(executable = realpathSync(process.execPath)): TrimResult {
  const { residentBefore } = trimLoadMemory();
  let mappings = 0;
  for (const m of parseMaps(readFileSync('/proc/self/maps', 'utf8'))) {
    if (m.path !== executable) continue;
    madvise(m.start, Number(m.end - m.start), MADV_PAGEOUT);
    mappings++;
  }
  return { mappings, residentBefore, residentAfter: residentBytes() };
}

/**
 * trimLoadMemory collects the JS heap and trims the C heap: what a burst of API clients left, freed but
 * kept. The executable's pages stay: serving calls is what they are for.
 */
export function trimLoadMemory(): Omit<TrimResult, 'mappings'> {
  const residentBefore = residentBytes();
  fullGc();
  mallocTrim();
  return { residentBefore, residentAfter: residentBytes() };
}
