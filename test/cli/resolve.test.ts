// Finding the command after leading global flags, by the table main dispatches on.
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/main.js';
import { resolve } from '../../src/cli/resolve.js';

const found = (argv: string[]) => {
  const r = resolve(argv, commands);
  return r.kind === 'command' ? [r.command.name, ...r.argv] : [r.kind, ...r.argv];
};

describe('resolve', () => {
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
      ['--nodes=b', '-i', 'shutdown'],
      ['shutdown', '--nodes=b', '-i'],
    ],
    [
      ['--talosconfig', 'tc', 'config', 'endpoint', 'x'],
      ['config endpoint', '--talosconfig', 'tc', 'x'],
    ],
    [
      ['-i', 'services', 'machined'],
      ['service', '-i', 'machined'],
    ],
    [['ps'], ['processes']],
    [['--help'], ['root', '--help']],
    [
      ['-n', 'b', 'service', '-n', 'c'],
      ['service', '-n', 'b', '-n', 'c'],
    ],
    [
      ['config', '--help'],
      ['group', '--help'],
    ],
  ])('%j → %j', (input, want) => expect(found(input)).toEqual(want));
});
