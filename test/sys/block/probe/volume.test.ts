import { describe, expect, it } from 'vitest';
import { HEAD_SIZE, volumeOf } from '../../../../src/sys/block/probe/volume.js';
import { noise } from './tools.js';

/** counted is a ReadAt over a buffer that records each call. */
function counted(buf: Buffer) {
  const calls: [number, number][] = [];
  const readAt = (offset: number, length: number) => {
    calls.push([offset, length]);
    return buf.subarray(offset, offset + length);
  };
  return { readAt, calls };
}

describe('volumeOf', () => {
  const bytes = noise(1024 * 1024, 'volume');

  it('reads the head once and serves every range inside it from memory', () => {
    const { readAt, calls } = counted(bytes);
    const vol = volumeOf(readAt, bytes.length);
    expect(vol.read(0x52, 8)).toEqual(bytes.subarray(0x52, 0x5a));
    expect(vol.read(0xfff6, 10)).toEqual(bytes.subarray(0xfff6, 0x10000));
    expect(calls).toEqual([[0, HEAD_SIZE]]);
  });

  it('reads beyond the head directly', () => {
    const { readAt, calls } = counted(bytes);
    const vol = volumeOf(readAt, bytes.length);
    expect(vol.read(256 * 1024, 4)).toEqual(bytes.subarray(256 * 1024, 256 * 1024 + 4));
    expect(vol.read(HEAD_SIZE - 2, 4)).toEqual(bytes.subarray(HEAD_SIZE - 2, HEAD_SIZE + 2));
    expect(calls).toEqual([
      [256 * 1024, 4],
      [HEAD_SIZE - 2, 4],
    ]);
  });

  it('answers undefined for bytes past the end, negative or fractional ranges', () => {
    const vol = volumeOf(counted(bytes).readAt, 4096);
    expect(vol.read(4090, 6)).toHaveLength(6);
    expect(vol.read(4090, 7)).toBeUndefined();
    expect(vol.read(-1, 2)).toBeUndefined();
    expect(vol.read(1.5, 2)).toBeUndefined();
    expect(vol.read(0, -1)).toBeUndefined();
  });

  it('answers undefined when the reader comes back short of a size it was promised', () => {
    const short = bytes.subarray(0, 1000);
    const vol = volumeOf((o, l) => short.subarray(o, o + l), bytes.length);
    expect(vol.read(990, 10)).toHaveLength(10);
    expect(vol.read(990, 11)).toBeUndefined();
    expect(vol.read(512 * 1024, 4)).toBeUndefined();
  });
});
