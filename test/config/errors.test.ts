import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  ConfigErrors,
  formatErrors,
  isConflictError,
  isDecodeError,
  isPatchError,
} from '../../src/config/errors.js';

describe('ConfigError', () => {
  it('renders document, path and line when known', () => {
    expect(new ConfigError('invalid', 'LinkConfig/eth0', 'mtu', 7, 'too small').message).toBe(
      'LinkConfig/eth0 mtu (line 7): too small',
    );
    expect(new ConfigError('invalid', 'v1alpha1', 'machine.type', undefined, 'bad').message).toBe(
      'v1alpha1 machine.type: bad',
    );
    expect(new ConfigError('missing-kind', 'document 2', '', 9, 'missing kind').message).toBe(
      'document 2 (line 9): missing kind',
    );
  });

  it('keeps the parts for callers that want them', () => {
    const e = new ConfigError('unknown-field', 'v1alpha1', 'machine.tipe', 6, 'unknown field "tipe"');
    expect([e.code, e.document, e.path, e.line, e.detail]).toEqual([
      'unknown-field',
      'v1alpha1',
      'machine.tipe',
      6,
      'unknown field "tipe"',
    ]);
    expect(e.name).toBe('ConfigError');
  });

  it('classifies errors by behaviour, alone or inside ConfigErrors', () => {
    const dup = new ConfigError('duplicate', 'HostnameConfig', '', 3, 'duplicate');
    const patch = new ConfigError('patch', 'v1alpha1', '', undefined, 'nope');
    expect(isConflictError(dup)).toBe(true);
    expect(isConflictError(new ConfigErrors([patch, dup]))).toBe(true);
    expect(isPatchError(new ConfigErrors([patch]))).toBe(true);
    expect(isDecodeError(new ConfigErrors([patch]))).toBe(false);
    expect(isDecodeError(new Error('other'))).toBe(false);
  });

  it('prints several errors like a multierror', () => {
    expect(formatErrors([new Error('a'), new Error('b')])).toBe('2 errors occurred:\n\t* a\n\t* b');
    expect(formatErrors([new Error('a')])).toBe('1 error occurred:\n\t* a');
  });
});
