import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { emitDocument, goKeyLess, Octal, sortKeys } from '../../src/config/yaml-emit.js';

describe('yaml.v3-style emitter', () => {
  it('quotes strings that would read back as something else', () => {
    const out = emitDocument({
      a: 'off',
      b: '',
      c: '1.10',
      d: 'yes',
      e: '0644',
      f: 'null',
      g: '2026-01-01',
      h: 'v1.36.3',
    });
    expect(out).toBe(
      'a: "off"\nb: ""\nc: "1.10"\nd: "yes"\ne: "0644"\nf: "null"\ng: "2026-01-01"\nh: v1.36.3\n',
    );
  });

  it('single-quotes indicators and keeps URLs and PEM plain', () => {
    const out = emitDocument({
      m: '!system_disk',
      nn: '- x',
      o: 'a: b',
      p: 'https://1.2.3.4:6443',
      q: 'LS0t+/=',
      r: '*',
      s: 'x #y',
    });
    expect(out).toBe(
      "m: '!system_disk'\nnn: '- x'\no: 'a: b'\np: https://1.2.3.4:6443\nq: LS0t+/=\nr: '*'\ns: 'x #y'\n",
    );
  });

  it('double-quotes control characters and writes multi-line strings as literal blocks', () => {
    expect(emitDocument({ t: 'a\tb' })).toBe('t: "a\\tb"\n');
    expect(emitDocument({ m: [{ name: 'x', contents: 'kind: A\nmetadata: {}\n' }] })).toBe(
      'm:\n    - name: x\n      contents: |\n        kind: A\n        metadata: {}\n',
    );
    expect(emitDocument({ s: 'no newline\nat end' })).toBe('s: |-\n    no newline\n    at end\n');
  });

  it('indents like yaml.v3 with 4 spaces, items at +2', () => {
    const v = { a: { b: [{ c: 1, d: { e: [1, 2] } }, [3, 4], {}, []] }, f: 0 };
    const out = emitDocument(v);
    expect(out).toBe(
      'a:\n    b:\n        - c: 1\n          d:\n            e:\n                - 1\n                - 2\n        - - 3\n          - 4\n        - {}\n        - []\nf: 0\n',
    );
    expect(parse(out)).toEqual(v);
  });

  it('writes file modes in octal', () => {
    expect(emitDocument({ permissions: new Octal(0o644) })).toBe('permissions: 0o644\n');
  });

  it('sorts map keys as yaml.v3 does', () => {
    expect(sortKeys(['b', 'a10', 'a2', 'A', 'a'])).toEqual(['A', 'a', 'a2', 'a10', 'b']);
    expect(goKeyLess('audit', 'audit-version')).toBe(true);
    expect(sortKeys(['warn-version', 'warn', 'enforce'])).toEqual(['enforce', 'warn', 'warn-version']);
  });
});
