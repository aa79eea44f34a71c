import { describe, expect, it } from 'vitest';
import { parseMounts, unescapeOctal } from '../../../src/sys/procfs/index.js';
import { fixture } from './fixture.js';

describe('parseMounts', () => {
  it('reads a captured /proc/mounts, unescaping spaces', () => {
    const mounts = parseMounts(fixture('mounts.txt'));
    expect(mounts[0]).toEqual({
      source: 'proc',
      target: '/proc',
      fstype: 'proc',
      options: ['rw', 'relatime'],
    });
    expect(mounts.at(-1)).toMatchObject({ source: '/dev/sdb1', target: '/media/usb stick', fstype: 'vfat' });
  });

  it.each([
    ['a\\040b', 'a b'],
    ['tab\\011x', 'tab\tx'],
    ['back\\134slash', 'back\\slash'],
    ['plain', 'plain'],
  ])('unescapes %j', (raw, want) => {
    expect(unescapeOctal(raw)).toBe(want);
  });

  it('rejects a short line', () => {
    expect(() => parseMounts('proc /proc\n')).toThrow(/\/proc\/mounts: fewer than three fields/);
  });
});
