// sgdisk as the judge of the tables Keel writes: its verify verdict and its view of each partition.
import { spawnSync } from 'node:child_process';

/** sgdisk runs it and returns what it printed on both streams; a failed run throws with that text. */
export function sgdisk(...args: string[]): string {
  const r = spawnSync('sgdisk', args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  const text = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`sgdisk ${args.join(' ')} exited ${r.status}:\n${text}`);
  return text;
}

export interface SgdiskPartition {
  readonly number: number;
  readonly type: string;
  readonly guid: string;
  readonly firstLba: bigint;
  readonly lastLba: bigint;
  readonly attributes: bigint;
  readonly name: string;
}

/** sgdiskInfo is `sgdisk -i N`, parsed. */
export function sgdiskInfo(disk: string, number: number): SgdiskPartition {
  const out = sgdisk('-i', String(number), disk);
  const field = (label: string): string => {
    const m = new RegExp(`^${label}: (.*)$`, 'm').exec(out);
    if (!m) throw new Error(`sgdisk -i ${number} ${disk} printed no "${label}":\n${out}`);
    return m[1]!;
  };
  return {
    number,
    type: field('Partition GUID code').split(' ')[0]!,
    guid: field('Partition unique GUID'),
    firstLba: BigInt(field('First sector').split(' ')[0]!),
    lastLba: BigInt(field('Last sector').split(' ')[0]!),
    attributes: BigInt(`0x${field('Attribute flags')}`),
    name: /^'(.*)'$/.exec(field('Partition name'))![1]!,
  };
}

/** sgdiskPrint is `sgdisk -p`: the disk GUID, the usable range and the partition numbers listed. */
export function sgdiskPrint(disk: string): {
  diskGuid: string;
  firstUsable: bigint;
  lastUsable: bigint;
  numbers: number[];
  text: string;
} {
  const text = sgdisk('-p', disk);
  const usable = /First usable sector is (\d+), last usable sector is (\d+)/.exec(text);
  const numbers = [...text.matchAll(/^\s+(\d+)\s+\d+\s+\d+\s/gm)].map((m) => Number(m[1]));
  return {
    diskGuid: /Disk identifier \(GUID\): (\S+)/.exec(text)?.[1] ?? '',
    firstUsable: BigInt(usable?.[1] ?? -1),
    lastUsable: BigInt(usable?.[2] ?? -1),
    numbers,
    text,
  };
}

/** sgdiskVerify returns sgdisk's verdict; a clean one says "No problems found" and found a table to check. */
export function sgdiskVerify(disk: string): { clean: boolean; text: string } {
  const text = sgdisk('--verify', disk);
  const clean = text.includes('No problems found') && !/Problem|Creating new GPT entries/.test(text);
  return { clean, text };
}
