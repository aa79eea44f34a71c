import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/machined/sequencer/duration.js';

describe('formatDuration', () => {
  it('renders µs, ms, s and minutes', () => {
    expect(formatDuration(0.25)).toBe('250µs');
    expect(formatDuration(12.5)).toBe('12.5ms');
    expect(formatDuration(1500)).toBe('1.5s');
    expect(formatDuration(61_000)).toBe('1m1s');
  });
});
