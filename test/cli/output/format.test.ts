// talosctl's small formats, pure: relative times, durations, byte sizes, file modes, columnized lines.
import { describe, expect, it } from 'vitest';
import {
  columnize,
  fileMode,
  goDuration,
  humanizeBytes,
  humanizeTime,
  shortDate,
} from '../../../src/cli/output/index.js';

const now = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const S = 1000;
const D = 86_400 * S;

describe('humanizeTime (go-humanize Time)', () => {
  it.each([
    [0, 'now'],
    [-1.5 * S, '1 second ago'],
    [-45 * S, '45 seconds ago'],
    [-90 * S, '1 minute ago'],
    [-3 * 3600 * S, '3 hours ago'],
    [-3 * D, '3 days ago'],
    [-10 * D, '1 week ago'],
    [-20 * D, '2 weeks ago'],
    [-45 * D, '1 month ago'],
    [-200 * D, '6 months ago'],
    [365 * D, '1 year from now'],
    [600 * D, '2 years from now'],
    [3650 * D, '10 years from now'],
    [40 * 360 * D, 'a long while from now'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanizeTime(at(ms), now)).toBe(text);
  });
});

describe('goDuration (time.Duration rounded to seconds)', () => {
  it.each([
    [0, '0s'],
    [400, '0s'],
    [1_500, '2s'],
    [59_000, '59s'],
    [61_000, '1m1s'],
    [3_600_000, '1h0m0s'],
    [93_784_000, '26h3m4s'],
  ])('%d ms → %s', (ms, text) => {
    expect(goDuration(ms)).toBe(text);
  });
});

describe('humanizeBytes (go-humanize Bytes, SI)', () => {
  it.each([
    [0, '0 B'],
    [9, '9 B'],
    [10, '10 B'],
    [999, '999 B'],
    [1_500, '1.5 kB'],
    [82_854_982, '83 MB'],
    [1_000_000_000, '1.0 GB'],
    [12_345_678_901, '12 GB'],
  ])('%d → %s', (n, text) => {
    expect(humanizeBytes(n)).toBe(text);
  });
});

describe('fileMode (os.FileMode.String)', () => {
  it.each([
    [0o644, '-rw-r--r--'],
    [(1 << 31) | 0o755, 'drwxr-xr-x'],
    [(1 << 27) | 0o777, 'Lrwxrwxrwx'],
    [(1 << 31) | (1 << 20) | (0o1777 & 0o777), 'dtrwxrwxrwx'],
    [(1 << 26) | (1 << 21) | 0o660, 'Dcrw-rw----'],
  ])('%o → %s', (mode, text) => {
    expect(fileMode(mode)).toBe(text);
  });
});

describe('shortDate and columnize', () => {
  it('prints Go "Jan 2 2006" dates', () => {
    expect(shortDate(0)).toMatch(/^(Jan 1 1970|Dec 31 1969)$/);
  });

  it('trims cells, pads all but the last column and joins with two spaces', () => {
    expect(columnize(['A | BB | C', '  long  | x | tail with spaces  '])).toBe(
      'A     BB  C\nlong  x   tail with spaces',
    );
  });
});
