import { describe, expect, it } from 'vitest';
import { moveLeadingFlags } from '../../src/cli/leading-flags.js';

describe('moveLeadingFlags', () => {
  it.each([
    [['version'], ['version']],
    [
      ['-n', '10.5.0.2', 'version'],
      ['version', '-n', '10.5.0.2'],
    ],
    [
      ['-e', 'a', '-n', 'b', 'get', 'ms'],
      ['get', '-e', 'a', '-n', 'b', 'ms'],
    ],
    [
      ['--nodes=b', '-i', 'version'],
      ['version', '--nodes=b', '-i'],
    ],
    [
      ['--talosconfig', 'tc', 'config', 'endpoint', 'x'],
      ['config', 'endpoint', '--talosconfig', 'tc', 'x'],
    ],
    [['--help'], ['--help']],
    [
      ['-n', 'b', 'services', '-n', 'c'],
      ['services', '-n', 'b', '-n', 'c'],
    ],
  ])('%j → %j', (input, want) => expect(moveLeadingFlags(input)).toEqual(want));
});
