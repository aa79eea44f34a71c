import { describe, expect, it } from 'vitest';
import { isProcfsMalformed, meminfoFieldName, parseMeminfo } from '../../../src/sys/procfs/index.js';
import { fixture } from './fixture.js';

describe('parseMeminfo', () => {
  it('reads a captured /proc/meminfo in kB, and counts for HugePages_*', () => {
    const m = parseMeminfo(fixture('meminfo.txt'));
    expect(m.get('MemTotal')).toBeGreaterThan(0);
    expect(m.get('MemFree')).toBeLessThanOrEqual(m.get('MemTotal')!);
    expect(m.has('Active(anon)')).toBe(true);
    expect(m.get('Hugepagesize')).toBeGreaterThan(0);
    expect(m.has('HugePages_Total')).toBe(true);
  });

  it.each([
    ['MemTotal:       16384 kB\n', 'MemTotal', 16384],
    ['HugePages_Total:       7\n', 'HugePages_Total', 7],
    ['Active(file):  0 kB', 'Active(file)', 0],
  ])('parses %j', (text, key, value) => {
    expect(parseMeminfo(text).get(key)).toBe(value);
  });

  it('names the file and the line it cannot read', () => {
    let err: unknown;
    try {
      parseMeminfo('MemTotal: lots\n', '/x/meminfo');
    } catch (e) {
      err = e;
    }
    expect(isProcfsMalformed(err)).toBe(true);
    expect((err as Error).message).toContain('/x/meminfo');
    expect((err as Error).message).toContain('MemTotal: lots');
  });
});

describe('meminfoFieldName', () => {
  it.each([
    ['MemTotal', 'memtotal'],
    ['Active(anon)', 'activeanon'],
    ['NFS_Unstable', 'nfsunstable'],
    ['Committed_AS', 'committedas'],
    ['HugePages_Total', 'hugepagestotal'],
    ['DirectMap4k', 'directmap4k'],
  ])('%s → %s', (key, field) => {
    expect(meminfoFieldName(key)).toBe(field);
  });
});
