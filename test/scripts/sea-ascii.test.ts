// Keeping the single executable's bundle ASCII: escaping a dependency's regular expressions, and the
// build's check of the bundle.
import { describe, expect, it } from 'vitest';
import { assertAscii, escapeNonAscii, NonAsciiBundleError } from '../../scripts/sea/ascii.js';

describe('escapeNonAscii', () => {
  it('leaves ASCII alone and spells every other UTF-16 unit as \\uXXXX', () => {
    expect(escapeNonAscii('plain /ascii$/ "text"')).toBe('plain /ascii$/ "text"');
    expect(escapeNonAscii('/pok[eé]mon$/i')).toBe('/pok[e\\u00e9]mon$/i');
    expect(escapeNonAscii('µ😀')).toBe('\\u00b5\\ud83d\\ude00');
  });

  it('keeps a regular expression matching what it matched', () => {
    for (const [pattern, flags, inputs] of [
      ['pok[eé]mon$', 'i', ['Pokémon', 'pokemon', 'pokmon']],
      ['(ns|µs|ms)', 'y', ['250µs', 'µs', 'us']],
      ['a😀b', 'u', ['a😀b', 'ab']],
    ] as const) {
      const escaped = new RegExp(escapeNonAscii(pattern), flags);
      for (const s of inputs)
        expect(escaped.test(s), `${pattern} on ${s}`).toBe(new RegExp(pattern, flags).test(s));
    }
  });
});

describe('assertAscii', () => {
  it('accepts an ASCII bundle', () => {
    expect(() => assertAscii('var a = "\\u00e9";\nvar b = /x/;\n', 'machined.cjs')).not.toThrow();
  });

  it('names the file, line and column of the first other character, with its context', () => {
    const code = 'var a = 1;\nvar re = /(ns|µs)/y;\nvar b = "é";\n';
    try {
      assertAscii(code, 'machined.cjs');
      expect.unreachable('a non-ASCII bundle passed');
    } catch (e) {
      expect(e).toBeInstanceOf(NonAsciiBundleError);
      const err = e as NonAsciiBundleError;
      expect([err.file, err.line, err.column]).toEqual(['machined.cjs', 2, 15]);
      expect(err.message).toMatch(/^machined\.cjs:2:15: the bundle must be ASCII/);
      expect(err.excerpt).toContain('(ns|µs)');
    }
  });
});
