import { describe, expect, it } from 'vitest';
import { sizeText } from '../../../../src/sys/block/gpt/size-text.js';

describe('sizeText', () => {
  it.each([
    [0n, '0 B'],
    [1023n, '1023 B'],
    [1024n, '1 KiB'],
    [100n << 20n, '100 MiB'],
    [(3n << 30n) / 2n, '1.5 GiB'],
    [(1n << 30n) + (1n << 20n) * 20n, '1.01 GiB'],
    [(1n << 30n) + (1n << 20n) * 10n, '1 GiB'],
    [1n << 62n, '4 EiB'],
  ])('shows %d bytes as %s', (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });
});
