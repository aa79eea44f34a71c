// /proc/self/mountinfo parsed into records, in mount order (parents before children).
import { readFileSync } from 'node:fs';

export interface MountInfo {
  id: number;
  parentId: number;
  /** major:minor of the backing device */
  device: string;
  /** the root of the mount within its filesystem */
  root: string;
  mountPoint: string;
  options: string;
  fstype: string;
  source: string;
  superOptions: string;
}

// mountinfo escapes space, tab, newline and backslash as octal
const decodeOctal = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** parseMountInfo parses the text of a mountinfo file. */
export function parseMountInfo(text: string): MountInfo[] {
  const out: MountInfo[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const f = line.split(' ');
    const sep = f.indexOf('-', 6); // optional fields end at a lone dash
    if (sep < 0 || f.length < sep + 4) continue;
    out.push({
      id: Number(f[0]),
      parentId: Number(f[1]),
      device: f[2]!,
      root: decodeOctal(f[3]!),
      mountPoint: decodeOctal(f[4]!),
      options: f[5]!,
      fstype: f[sep + 1]!,
      source: decodeOctal(f[sep + 2]!),
      superOptions: f[sep + 3]!,
    });
  }
  return out;
}

/** readMountInfo reads the calling process's mount table. */
export const readMountInfo = (path = '/proc/self/mountinfo'): MountInfo[] =>
  parseMountInfo(readFileSync(path, 'utf8'));
