import { describe, expect, it } from 'vitest';
import { probeErrorOf } from '../../../../src/sys/block/probe/errors.js';
import { isProbeNotFound, isProbeUnavailable, ProbeError } from '../../../../src/sys/block/probe/index.js';
import { SysError } from '../../../../src/sys/errno.js';

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('ProbeError', () => {
  it('names the path first', () => {
    const e = new ProbeError('io', '/dev/sda', 'read of 4096 bytes at 0: EIO');
    expect(e.message).toBe('/dev/sda: read of 4096 bytes at 0: EIO');
    expect([e.name, e.code, e.path]).toEqual(['ProbeError', 'io', '/dev/sda']);
  });

  it.each([
    ['ENOENT', 'not-found'],
    ['ENXIO', 'not-found'],
    ['EACCES', 'permission-denied'],
    ['EPERM', 'permission-denied'],
    ['ENOMEDIUM', 'no-medium'],
    ['EIO', 'io'],
  ])('maps %s to %s, keeping the cause', (code, expected) => {
    const cause = errno(code);
    const e = probeErrorOf('/dev/sr0', 'open', cause);
    expect(e).toMatchObject({ code: expected, path: '/dev/sr0', cause });
    expect(e.message).toBe(`/dev/sr0: open: ${code}: failed`);
  });

  it('maps a SysError by its errno name and passes a ProbeError through', () => {
    const sys = new SysError('ioctl', 1, [3, 'BLKGETSIZE64']);
    expect(probeErrorOf('/dev/sda', 'device size', sys).code).toBe('permission-denied');
    const own = new ProbeError('no-medium', '/dev/sr0', 'x');
    expect(probeErrorOf('/dev/other', 'y', own)).toBe(own);
  });

  it('classifies by behaviour', () => {
    expect(isProbeNotFound(new ProbeError('not-found', 'p', 'm'))).toBe(true);
    expect(isProbeUnavailable(new ProbeError('no-medium', 'p', 'm'))).toBe(true);
    expect(isProbeUnavailable(new ProbeError('io', 'p', 'm'))).toBe(false);
    expect(isProbeNotFound(new Error('not-found'))).toBe(false);
  });
});
