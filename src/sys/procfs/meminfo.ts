// /proc/meminfo: "Key:   value [kB]" lines, values kept in the kernel's units (kB, or counts for HugePages_*).
import { malformed } from './errors.js';

/** Meminfo maps the kernel's keys (`MemTotal`, `Active(anon)`, `HugePages_Total`) to their numbers. */
export type Meminfo = ReadonlyMap<string, number>;

/** parseMeminfo reads every line; a line without a number is malformed rather than silently zero. */
export function parseMeminfo(text: string, file = '/proc/meminfo'): Meminfo {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const m = /^([^:\s]+):\s+(\d+)(?:\s+kB)?\s*$/.exec(line);
    if (!m) throw malformed(file, 'not a "key: value" line', line);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/**
 * meminfoFieldName is the protobuf MemInfo field for a kernel key: upstream names the fields by lowercasing
 * the key and dropping everything but letters and digits (`Active(anon)` → `activeanon`).
 */
export const meminfoFieldName = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');
