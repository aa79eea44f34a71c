// /proc/mounts: "source target fstype options 0 0", with spaces and other bytes escaped as octal (\040).
import { malformed } from './errors.js';

export interface MountEntry {
  readonly source: string;
  readonly target: string;
  readonly fstype: string;
  readonly options: readonly string[];
}

/** unescapeOctal undoes the kernel's `\ooo` escaping of whitespace and backslashes in mount fields. */
export const unescapeOctal = (s: string): string =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));

export function parseMounts(text: string, file = '/proc/mounts'): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const [source, target, fstype, options] = line.trim().split(/\s+/);
    if (source === undefined || target === undefined || fstype === undefined)
      throw malformed(file, 'fewer than three fields', line);
    out.push({
      source: unescapeOctal(source),
      target: unescapeOctal(target),
      fstype,
      options: options ? options.split(',') : [],
    });
  }
  return out;
}
