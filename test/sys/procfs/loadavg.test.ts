import { describe, expect, it } from 'vitest';
import { isProcfsMalformed, parseLoadAvg } from '../../../src/sys/procfs/index.js';
import { fixture } from './fixture.js';

describe('parseLoadAvg', () => {
  it('reads a captured /proc/loadavg', () => {
    const l = parseLoadAvg(fixture('loadavg.txt'));
    expect(l).toEqual({ load1: 2.51, load5: 2.33, load15: 3.01, running: 1, total: 1100, lastPid: 12244 });
  });

  it.each([['0.00 0.01 0.05 1/80 1\n'], ['12.50 3.00 1.75 10/2000 999999']])('parses %j', (text) => {
    expect(parseLoadAvg(text).load1).toBe(Number(text.split(' ')[0]));
  });

  it.each([[''], ['1 2 3'], ['a b c 1/2 3']])('rejects %j', (text) => {
    expect(() => parseLoadAvg(text)).toThrow(/\/proc\/loadavg/);
    try {
      parseLoadAvg(text);
    } catch (e) {
      expect(isProcfsMalformed(e)).toBe(true);
    }
  });
});
