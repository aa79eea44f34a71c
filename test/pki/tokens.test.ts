import { describe, expect, it } from 'vitest';
import { newSecret, newToken } from '../../src/pki/index.js';

describe('tokens', () => {
  it('makes kubeadm-shaped tokens from lowercase letters and digits', () => {
    for (let i = 0; i < 100; i++) expect(newToken()).toMatch(/^[0-9a-z]{6}\.[0-9a-z]{16}$/);
    expect(newToken(3, 4)).toMatch(/^[0-9a-z]{3}\.[0-9a-z]{4}$/);
  });

  it('uses every character of the alphabet', () => {
    const seen = new Set(
      [...Array.from({ length: 200 }, () => newToken()).join('')].filter((c) => c !== '.'),
    );
    expect(seen.size).toBe(36);
  });

  it('makes base64 secrets of the requested size', () => {
    expect(Buffer.from(newSecret(), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(newSecret());
  });
});
