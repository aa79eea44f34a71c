import { describe, expect, it } from 'vitest';
import { cString, label, rtrim } from '../../../../src/sys/block/probe/text.js';

describe('text fields', () => {
  it('stops at the first NUL', () => {
    expect(cString(Buffer.from('abc\0def')).toString()).toBe('abc');
    expect(cString(Buffer.from('abc')).toString()).toBe('abc');
  });
  it("trims only C's whitespace from the right", () => {
    expect(rtrim(' a b \t\n\v\f\r')).toBe(' a b');
    expect(rtrim('a\u00a0')).toBe('a\u00a0');
  });
  it('is undefined when nothing but padding is left', () => {
    expect(label(Buffer.from('           '))).toBeUndefined();
    expect(label(Buffer.alloc(16))).toBeUndefined();
    expect(label(Buffer.from('KEEL  \0junk'))).toBe('KEEL');
  });
  it('decodes single-byte code pages as latin1 and the rest as UTF-8', () => {
    expect(label(Buffer.from([0xc9, 0x54, 0x45]), 'latin1')).toBe('ÉTE');
    expect(label(Buffer.from('été', 'utf8'))).toBe('été');
  });
});
