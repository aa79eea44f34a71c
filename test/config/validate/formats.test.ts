// Go duration strings as the config's validation reads them (time-sync timeouts, intervals).
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/config/validate/formats.js';

describe('parseDuration', () => {
  it('reads every Go unit, µs spelled either way, in milliseconds', () => {
    expect(parseDuration('500ns')).toBeCloseTo(0.0005);
    expect(parseDuration('250us')).toBeCloseTo(0.25);
    expect(parseDuration('250µs')).toBeCloseTo(0.25);
    expect(parseDuration('20ms')).toBe(20);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('1h2m3s')).toBe(3_723_000);
    expect(parseDuration('0')).toBe(0);
  });

  it('is undefined for what Go would refuse', () => {
    for (const s of ['', '5', 's', '5x', '1h 2m', '-5s', '5µ']) expect(parseDuration(s), s).toBeUndefined();
  });
});
