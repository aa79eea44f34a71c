// The system clock bindings, read-only against the host: nothing here may move this machine's clock.
// Writes are exercised only where the kernel must refuse them (a user namespace lacks CAP_SYS_TIME in the
// initial one). A time namespace offsets CLOCK_MONOTONIC and CLOCK_BOOTTIME only, never CLOCK_REALTIME,
// so it proves clock ids pass through but cannot host a realtime write.
import { describe, expect, it } from 'vitest';
import { archTable } from '../../src/sys/arch.js';
import {
  ADJ_NANO,
  ADJ_SETOFFSET,
  adjtimeReadout,
  adjtimex,
  CLOCK_MONOTONIC,
  clockGettime,
  decodeTimex,
  encodeTimex,
  STA_NANO,
  STA_PLL,
  STA_UNSYNC,
  type Timex,
  timexStatusString,
} from '../../src/sys/clock.js';
import { requireRoot, runSnippet, sys } from './child.js';

const MS = 1_000_000n;

describe('clockGettime', () => {
  it('reads CLOCK_REALTIME in nanoseconds, agreeing with Date.now()', () => {
    const before = BigInt(Date.now()) * MS;
    const t = clockGettime();
    const after = BigInt(Date.now()) * MS;
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThan(after + MS);
  });

  it('reads CLOCK_MONOTONIC shifted inside a time namespace', () => {
    requireRoot('a time namespace');
    const code = `const { clockGettime, CLOCK_MONOTONIC } = await import(${JSON.stringify(sys('clock.ts'))});
      console.log(String(clockGettime(CLOCK_MONOTONIC)));`;
    const outside = clockGettime(CLOCK_MONOTONIC);
    const r = runSnippet(code, ['--fork', '--time', '--monotonic', '864000']);
    expect(r.stderr).toBe('');
    expect(BigInt(r.stdout.trim()) - outside).toBeGreaterThan(863_000n * 1_000n * MS);
  });
});

describe('adjtimex', () => {
  it('reads the kernel clock discipline without changing it (modes 0)', () => {
    const { state, timex } = adjtimex();
    expect(['TIME_OK', 'TIME_INS', 'TIME_DEL', 'TIME_OOP', 'TIME_WAIT', 'TIME_ERROR']).toContain(state);
    // fields the kernel fills with constants land where the layout says: tick is 1e6/USER_HZ µs,
    // tolerance is 500 ppm scaled by 2^16, precision is 1 µs
    expect(timex.tick).toBeGreaterThan(900);
    expect(timex.tick).toBeLessThan(11_000);
    expect(timex.tolerance).toBe(500 * 65536);
    expect(timex.precision).toBe(1);
    // the current time comes back in struct timex too (µs or ns, by STA_NANO)
    const perSecond = timex.status & STA_NANO ? 1e9 : 1e6;
    expect(Math.abs(timex.time.sec + timex.time.usec / perSecond - Date.now() / 1000)).toBeLessThan(5);
  });

  it("reads out as upstream's AdjtimeStatus does", () => {
    const raw = adjtimex();
    const r = adjtimeReadout(raw);
    expect(r.state).toBe(raw.state);
    expect(r.status).toBe(timexStatusString(raw.timex.status));
    expect(r.syncStatus).toBe((raw.timex.status & STA_UNSYNC) === 0);
    const fake = adjtimeReadout({
      state: 'TIME_ERROR',
      timex: { ...adjtimex().timex, status: STA_UNSYNC | STA_PLL, offset: 250, freq: 65536 * 10 },
    });
    expect(fake).toMatchObject({
      status: 'STA_PLL | STA_UNSYNC',
      syncStatus: false,
      offsetNs: 250_000, // µs without STA_NANO
      frequencyAdjustmentRatio: 1.00001,
    });
  });

  it('is refused a step without CAP_SYS_TIME, and so is clock_settime', () => {
    // a user namespace's root has no CAP_SYS_TIME over the host's clock: both calls must fail, harmlessly
    const code = `const c = await import(${JSON.stringify(sys('clock.ts'))});
      const out = [];
      try { c.adjtimex({ modes: c.ADJ_SETOFFSET | c.ADJ_NANO, time: { sec: 0, usec: 0 } }); out.push('stepped'); }
      catch (e) { out.push(e.code); }
      try { c.clockSettime(c.clockGettime()); out.push('set'); } catch (e) { out.push(e.code); }
      console.log(out.join(' '));`;
    const r = runSnippet(code, ['--user']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('EPERM EPERM');
  });
});

describe('struct timex layout', () => {
  const sample: Timex = {
    modes: ADJ_SETOFFSET | ADJ_NANO,
    offset: -123_456,
    freq: 7 * 65536,
    maxerror: 11,
    esterror: 12,
    status: STA_PLL | STA_NANO,
    constant: 4,
    precision: 1,
    tolerance: 32_768_000,
    time: { sec: -3, usec: 999_999_999 },
    tick: 10_000,
    tai: 37,
  };

  it.each(['x64', 'arm64'])('round-trips every field on %s at the C offsets', (arch) => {
    const l = archTable(arch).timex;
    const b = encodeTimex(sample, l);
    expect(b).toHaveLength(208);
    expect(b.readBigInt64LE(72)).toBe(-3n); // time.tv_sec, after tolerance
    expect(b.readInt32LE(160)).toBe(37); // tai, after the PPS counters
    expect(decodeTimex(b, l)).toEqual(sample);
  });

  it('names status bits in upstream order', () => {
    expect(timexStatusString(STA_PLL | STA_UNSYNC | STA_NANO)).toBe('STA_PLL | STA_UNSYNC | STA_NANO');
    expect(timexStatusString(0)).toBe('');
  });
});
