import { describe, expect, it } from 'vitest';
import {
  BlockError,
  blockErrorOf,
  codeOfErrno,
  isBlockBusy,
  isBlockNotFound,
  isBlockUnsupported,
} from '../../../../src/sys/block/devices/errors.js';
import { SysError } from '../../../../src/sys/errno.js';

describe('BlockError', () => {
  it('names the device first and keeps its code', () => {
    const e = new BlockError('busy', '/dev/loop3', 'partitions are open');
    expect(e.message).toBe('/dev/loop3: partitions are open');
    expect(e).toMatchObject({ name: 'BlockError', code: 'busy', device: '/dev/loop3' });
  });

  it('classifies errno names', () => {
    expect(codeOfErrno('ENXIO')).toBe('not-found');
    expect(codeOfErrno('ENOTBLK')).toBe('not-a-block-device');
    expect(codeOfErrno('EROFS')).toBe('read-only');
    expect(codeOfErrno('EBUSY')).toBe('busy');
    expect(codeOfErrno('ENOTTY')).toBe('unsupported');
    expect(codeOfErrno('EOPNOTSUPP')).toBe('unsupported');
    expect(codeOfErrno('EIO')).toBe('io');
    expect(codeOfErrno(undefined)).toBe('io');
  });

  it('wraps a failed call, from a SysError or a Node fs error, and passes a BlockError through', () => {
    const sys = blockErrorOf('/dev/loop3', 'BLKRRPART', new SysError('ioctl', 16, [17, '0x125f']));
    expect(sys).toMatchObject({ code: 'busy', device: '/dev/loop3' });
    expect(sys.message).toMatch(/^\/dev\/loop3: BLKRRPART: ioctl\(17, "0x125f"\): EBUSY \(.+\)$/);
    expect(sys.cause).toBeInstanceOf(SysError);
    const fs = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    expect(blockErrorOf('/dev/sdz', 'open', fs).code).toBe('not-found');
    const same = new BlockError('locked', 'x', 'y');
    expect(blockErrorOf('z', 'w', same)).toBe(same);
  });

  it('answers the questions callers ask', () => {
    expect(isBlockBusy(new BlockError('locked', 'x', 'y'))).toBe(true);
    expect(isBlockBusy(new BlockError('busy', 'x', 'y'))).toBe(true);
    expect(isBlockBusy(new BlockError('io', 'x', 'y'))).toBe(false);
    expect(isBlockNotFound(new BlockError('not-found', 'x', 'y'))).toBe(true);
    expect(isBlockUnsupported(new BlockError('unsupported', 'x', 'y'))).toBe(true);
    expect(isBlockUnsupported(new Error('unsupported'))).toBe(false);
  });
});
