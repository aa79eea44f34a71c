import { describe, expect, it } from 'vitest';
import {
  durationFromMs,
  msFromProtoTime,
  timestampFromMs,
} from '../../../../src/cosi/resource/protobuf/time.js';

describe('Timestamp and Duration from milliseconds', () => {
  it('keeps Timestamp nanos non-negative, also before the epoch', () => {
    expect(timestampFromMs(1624476149123)).toEqual({ seconds: 1624476149, nanos: 123_000_000 });
    expect(timestampFromMs(-1)).toEqual({ seconds: -1, nanos: 999_000_000 });
    expect(timestampFromMs(0)).toEqual({ seconds: 0, nanos: 0 });
  });

  it('gives Duration seconds and nanos the same sign', () => {
    expect(durationFromMs(-1500)).toEqual({ seconds: -1, nanos: -500_000_000 });
    expect(durationFromMs(1500)).toEqual({ seconds: 1, nanos: 500_000_000 });
  });

  it('keeps sub-millisecond parts and carries a rounded-up second', () => {
    expect(timestampFromMs(1000.000001)).toEqual({ seconds: 1, nanos: 1 });
    expect(timestampFromMs(999.9999999)).toEqual({ seconds: 1, nanos: 0 });
    expect(msFromProtoTime(1, 500_000)).toBe(1000.5);
  });
});
