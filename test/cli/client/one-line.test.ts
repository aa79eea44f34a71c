import { describe, expect, it } from 'vitest';
import { oneLine } from '../../../src/cli/client/one-line.js';

describe('oneLine', () => {
  it('folds upstream’s multierror list into one line', () => {
    expect(oneLine('failed to decode: 1 error occurred:\n\t* document 1 (line 1): missing kind\n')).toBe(
      'failed to decode: 1 error occurred: document 1 (line 1): missing kind',
    );
    expect(oneLine('2 errors occurred:\n\t* a (line 4): bad\n\t* b (line 5): worse\n\n')).toBe(
      '2 errors occurred: a (line 4): bad; b (line 5): worse',
    );
  });

  it('turns any other line break into a space and leaves one line alone', () => {
    expect(oneLine('first\n  second\r\nthird')).toBe('first second third');
    expect(oneLine('configuration is empty')).toBe('configuration is empty');
  });
});
