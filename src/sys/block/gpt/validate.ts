// The checks a table must pass before it is trusted (after a read) or written: the header's ranges fit
// around both arrays, and every partition lies inside the usable range without sharing a sector.
import { checkName } from './entry.js';
import { GptError } from './errors.js';
import { arraySectors, backupEntriesLba, checkSectorSize, type GptTable } from './table.js';

/** validateTable throws the first problem it finds; `where` says which copy, for a table just read. */
export function validateTable(t: GptTable, where = 'table'): void {
  checkSectorSize(t.sectorSize);
  const primaryEnd = t.primaryEntriesLba + arraySectors(t) - 1n;
  if (t.primaryEntriesLba < 2n || primaryEnd >= t.firstUsableLba)
    throw new GptError(
      'bad-header',
      `${where}: the primary array (LBA ${t.primaryEntriesLba}..${primaryEnd}) runs into the first usable LBA ${t.firstUsableLba}`,
    );
  if (t.lastUsableLba < t.firstUsableLba)
    throw new GptError(
      'bad-header',
      `${where}: the last usable LBA ${t.lastUsableLba} is before the first ${t.firstUsableLba}`,
    );
  if (t.lastUsableLba >= backupEntriesLba(t))
    throw new GptError(
      'bad-header',
      `${where}: the last usable LBA ${t.lastUsableLba} runs into the backup array at LBA ${backupEntriesLba(t)}`,
    );
  const numbers = new Set<number>();
  for (const p of t.partitions) {
    const what = `${where}: partition ${p.number} (${JSON.stringify(p.name)})`;
    if (!Number.isInteger(p.number) || p.number < 1 || p.number > t.entryCount || numbers.has(p.number))
      throw new GptError('invalid-argument', `${what}: number is a duplicate or outside 1..${t.entryCount}`);
    numbers.add(p.number);
    checkName(p.name, what);
    if (p.lastLba < p.firstLba)
      throw new GptError('out-of-range', `${what}: ends at LBA ${p.lastLba}, before its start ${p.firstLba}`);
    if (p.firstLba < t.firstUsableLba || p.lastLba > t.lastUsableLba)
      throw new GptError(
        'out-of-range',
        `${what}: LBA ${p.firstLba}..${p.lastLba} is outside the usable ${t.firstUsableLba}..${t.lastUsableLba}`,
      );
  }
  const byStart = [...t.partitions].sort((a, b) =>
    a.firstLba < b.firstLba ? -1 : a.firstLba > b.firstLba ? 1 : 0,
  );
  for (let i = 1; i < byStart.length; i++) {
    const a = byStart[i - 1]!;
    const b = byStart[i]!;
    if (b.firstLba <= a.lastLba)
      throw new GptError(
        'overlap',
        `${where}: partition ${a.number} (LBA ${a.firstLba}..${a.lastLba}) and partition ${b.number} (LBA ${b.firstLba}..${b.lastLba}) overlap`,
      );
  }
}
