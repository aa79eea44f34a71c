import { describe, expect, it } from 'vitest';
import { check, errnoMessage, errnoName, errnoNumber, isSysError, SysError } from '../../src/sys/errno.js';
import { mount } from '../../src/sys/mount.js';

describe('errno mapping', () => {
  it('maps numbers to names and back', () => {
    expect(errnoName(1)).toBe('EPERM');
    expect(errnoName(2)).toBe('ENOENT');
    expect(errnoName(16)).toBe('EBUSY');
    expect(errnoNumber('EINVAL')).toBe(22);
    expect(errnoName(9999)).toBe('E9999');
    expect(errnoMessage(1)).toBe('operation not permitted');
  });

  it('spells the failed call out in the message', () => {
    const e = new SysError('mount', 1, ['proc', '/proc']);
    expect(e.message).toBe('mount("proc", "/proc"): EPERM (operation not permitted)');
    expect(e.code).toBe('EPERM');
    expect(e.errno).toBe(1);
    expect(e.syscall).toBe('mount');
    expect(e.path).toBe('proc');
    expect(isSysError(e, 'EPERM')).toBe(true);
    expect(isSysError(e, 'EBUSY')).toBe(false);
    expect(isSysError(new Error('x'))).toBe(false);
  });

  it('check passes results through and turns -1 into the errno of the last call', () => {
    expect(check(0, 'x')).toBe(0);
    expect(check(5n, 'x')).toBe(5n);
    // a real failing call sets errno: mounting onto a path that does not exist
    let err: unknown;
    try {
      mount('tmpfs', '/nonexistent/keel/target', 'tmpfs');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SysError);
    expect((err as SysError).code).toBe('ENOENT');
    expect((err as SysError).message).toBe(
      'mount("tmpfs", "/nonexistent/keel/target"): ENOENT (no such file or directory)',
    );
  });
});
