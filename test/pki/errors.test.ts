import { describe, expect, it } from 'vitest';
import {
  isInvalidInput,
  isKeyMismatch,
  isNotIssuedBy,
  isUnsupportedKey,
  PKIError,
  type PKIErrorCode,
} from '../../src/pki/index.js';

describe('PKIError', () => {
  it('answers each predicate for its own codes only', () => {
    const cases: [PKIErrorCode, (e: unknown) => boolean][] = [
      ['invalid-pem', isInvalidInput],
      ['invalid-key', isInvalidInput],
      ['invalid-certificate', isInvalidInput],
      ['invalid-option', isInvalidInput],
      ['unsupported-key', isUnsupportedKey],
      ['key-mismatch', isKeyMismatch],
      ['not-issued-by', isNotIssuedBy],
    ];
    const predicates = [isInvalidInput, isUnsupportedKey, isKeyMismatch, isNotIssuedBy];
    for (const [code, own] of cases) {
      const e = new PKIError(code, 'x');
      expect(e.name).toBe('PKIError');
      for (const p of predicates) expect(p(e), `${code} vs ${p.name}`).toBe(p === own);
    }
    expect(isKeyMismatch(new Error('key-mismatch'))).toBe(false);
  });
});
