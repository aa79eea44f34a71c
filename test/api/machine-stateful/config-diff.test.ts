import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/api/machine-stateful/index.js';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
  });

  it('shows a change with its context in one hunk', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8'].join('\n');
    expect(unifiedDiff(before, after)).toBe(
      [
        '--- a/config',
        '+++ b/config',
        '@@ -2,7 +2,7 @@',
        ' 2',
        ' 3',
        ' 4',
        '-5',
        '+five',
        ' 6',
        ' 7',
        ' 8',
        '',
      ].join('\n'),
    );
  });

  it('diffs against nothing as one added hunk', () => {
    expect(unifiedDiff('', 'a\nb\n')).toBe(
      ['--- a/config', '+++ b/config', '@@ -0,0 +1,2 @@', '+a', '+b', ''].join('\n'),
    );
  });

  it('splits distant changes into separate hunks', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = lines.map((l, i) => (i === 1 || i === 18 ? `${l}!` : l));
    const diff = unifiedDiff(lines.join('\n'), changed.join('\n'));
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,5 +1,5 @@');
    expect(diff).toContain('@@ -16,5 +16,5 @@');
  });
});
