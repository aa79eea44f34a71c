import { describe, expect, it } from 'vitest';
import { bool, parseArgs, str, strs, UsageError } from '../../src/cli/args.js';

const spec = {
  config: { kind: 'string', short: 'c', usage: 'the config' },
  strict: { kind: 'bool', usage: 'be strict' },
  sans: { kind: 'list', commas: true, usage: 'extra SANs' },
  patch: { kind: 'list', usage: 'patches' },
  output: { kind: 'string', short: 'o', default: '.', usage: 'where to write' },
} as const;

describe('parseArgs', () => {
  it('reads long, short and = forms, lists and positionals', () => {
    const a = parseArgs(
      ['gen', '-c', 'a.yaml', '--strict', '--sans=a,b', '--sans', 'c', '--patch', 'x,y', 'rest'],
      spec,
    );
    expect(a.positional).toEqual(['gen', 'rest']);
    expect(str(a, 'config')).toBe('a.yaml');
    expect(bool(a, 'strict')).toBe(true);
    expect(strs(a, 'sans')).toEqual(['a', 'b', 'c']);
    expect(strs(a, 'patch')).toEqual(['x,y']);
    expect(str(a, 'output')).toBe('.');
  });

  it('takes --flag=false for booleans and stops at --', () => {
    const a = parseArgs(['--strict=false', '--', '--config'], spec);
    expect(bool(a, 'strict')).toBe(false);
    expect(a.positional).toEqual(['--config']);
  });

  it('names the flag at fault', () => {
    expect(() => parseArgs(['--nope'], spec)).toThrow(new UsageError('unknown flag: --nope'));
    expect(() => parseArgs(['-c'], spec)).toThrow('flag needs an argument: --config');
    expect(() => parseArgs(['--strict=maybe'], spec)).toThrow('invalid value "maybe" for --strict');
  });
});
