// The system clock: clock_gettime(2)/clock_settime(2) and clock_adjtime(2) (adjtimex on a chosen clock),
// whose struct timex layout comes from the per-architecture table. Times are nanoseconds as bigint.
import { ARCH, type TimexLayout } from './arch.js';
import { check } from './errno.js';
import { libc } from './libc.js';

export const CLOCK_REALTIME = 0;
export const CLOCK_MONOTONIC = 1;
export const CLOCK_BOOTTIME = 7;

// adjtimex modes (linux/timex.h)
export const ADJ_OFFSET = 0x0001;
export const ADJ_FREQUENCY = 0x0002;
export const ADJ_MAXERROR = 0x0004;
export const ADJ_ESTERROR = 0x0008;
export const ADJ_STATUS = 0x0010;
export const ADJ_TIMECONST = 0x0020;
export const ADJ_TAI = 0x0080;
export const ADJ_SETOFFSET = 0x0100;
export const ADJ_MICRO = 0x1000;
export const ADJ_NANO = 0x2000;
export const ADJ_TICK = 0x4000;

// status bits, in the order upstream prints them
export const STA_BITS = {
  STA_PLL: 0x0001,
  STA_PPSFREQ: 0x0002,
  STA_PPSTIME: 0x0004,
  STA_FLL: 0x0008,
  STA_INS: 0x0010,
  STA_DEL: 0x0020,
  STA_UNSYNC: 0x0040,
  STA_FREQHOLD: 0x0080,
  STA_PPSSIGNAL: 0x0100,
  STA_PPSJITTER: 0x0200,
  STA_PPSWANDER: 0x0400,
  STA_PPSERROR: 0x0800,
  STA_CLOCKERR: 0x1000,
  STA_NANO: 0x2000,
  STA_MODE: 0x4000,
  STA_CLK: 0x8000,
} as const;
export const { STA_PLL, STA_INS, STA_DEL, STA_UNSYNC, STA_NANO } = STA_BITS;

/** ClockState is adjtimex's return value: the kernel's leap-second state machine, or TIME_ERROR. */
export type ClockState = 'TIME_OK' | 'TIME_INS' | 'TIME_DEL' | 'TIME_OOP' | 'TIME_WAIT' | 'TIME_ERROR';
const STATES: readonly ClockState[] = [
  'TIME_OK',
  'TIME_INS',
  'TIME_DEL',
  'TIME_OOP',
  'TIME_WAIT',
  'TIME_ERROR',
];

/** Timex mirrors struct timex; units follow the kernel (offset in µs, or ns with ADJ_NANO/STA_NANO). */
export interface Timex {
  modes: number;
  offset: number;
  /** frequency offset, ppm scaled by 2^16 */
  freq: number;
  /** µs */
  maxerror: number;
  /** µs */
  esterror: number;
  status: number;
  constant: number;
  precision: number;
  tolerance: number;
  /** for ADJ_SETOFFSET: seconds, and µs or ns (ADJ_NANO), the latter never negative */
  time: { sec: number; usec: number };
  tick: number;
  tai: number;
}

const EMPTY: Timex = {
  modes: 0,
  offset: 0,
  freq: 0,
  maxerror: 0,
  esterror: 0,
  status: 0,
  constant: 0,
  precision: 0,
  tolerance: 0,
  time: { sec: 0, usec: 0 },
  tick: 0,
  tai: 0,
};

const clock_gettime_ = libc.func('int clock_gettime(int clk, _Out_ uint8_t *ts)');
const clock_settime_ = libc.func('int clock_settime(int clk, const uint8_t *ts)');
const clock_adjtime_ = libc.func('int clock_adjtime(int clk, _Inout_ uint8_t *tx)');

const NS = 1_000_000_000n;

// struct timespec is two longs on every ABI in the table (all LP64)
const TIMESPEC_SIZE = 16;

/** clockGettime reads a clock in nanoseconds (since the Unix epoch for CLOCK_REALTIME). */
export function clockGettime(clock: number = CLOCK_REALTIME): bigint {
  const ts = Buffer.alloc(TIMESPEC_SIZE);
  check(clock_gettime_(clock, ts), 'clock_gettime', clock);
  return ts.readBigInt64LE(0) * NS + ts.readBigInt64LE(8);
}

/** clockSettime sets a clock (CAP_SYS_TIME); a step, unlike adjtimex's ADJ_SETOFFSET, races with readers. */
export function clockSettime(ns: bigint, clock: number = CLOCK_REALTIME): void {
  const ts = Buffer.alloc(TIMESPEC_SIZE);
  let sec = ns / NS;
  let nsec = ns % NS;
  if (nsec < 0n) {
    sec -= 1n;
    nsec += NS;
  }
  ts.writeBigInt64LE(sec, 0);
  ts.writeBigInt64LE(nsec, 8);
  check(clock_settime_(clock, ts), 'clock_settime', clock, String(ns));
}

/** AdjtimexResult is the state the call returned and the struct as the kernel left it. */
export interface AdjtimexResult {
  readonly state: ClockState;
  readonly timex: Timex;
}

/**
 * adjtimex is clock_adjtime(2) on CLOCK_REALTIME: fields named in `modes` are written, every field is read
 * back. No modes (the default) only reads, which needs no privilege.
 */
export function adjtimex(req: Partial<Timex> = {}, clock: number = CLOCK_REALTIME): AdjtimexResult {
  const buf = encodeTimex({ ...EMPTY, ...req }, ARCH.timex);
  const ret = check(clock_adjtime_(clock, buf), 'clock_adjtime', clock, req.modes ?? 0);
  return { state: clockStateOf(ret), timex: decodeTimex(buf, ARCH.timex) };
}

/** clockStateOf names adjtimex's return value; 5 (TIME_ERROR) means the clock is not synchronised. */
export const clockStateOf = (n: number): ClockState => STATES[n] ?? 'TIME_ERROR';

/** timexStatusString lists the set status bits as upstream prints them: `STA_PLL | STA_NANO`. */
export function timexStatusString(status: number): string {
  return Object.entries(STA_BITS)
    .filter(([, bit]) => (status & bit) === bit)
    .map(([name]) => name)
    .join(' | ');
}

/** AdjtimeReadout is what upstream's AdjtimeStatus resource shows of the kernel's clock discipline. */
export interface AdjtimeReadout {
  /** the remaining slew, ns */
  readonly offsetNs: number;
  readonly frequencyAdjustmentRatio: number;
  readonly maxErrorUs: number;
  readonly estErrorUs: number;
  readonly status: string;
  readonly state: ClockState;
  readonly constant: number;
  /** STA_UNSYNC is clear */
  readonly syncStatus: boolean;
}

/** adjtimeReadout interprets a read-only adjtimex result (the default reads this process's clock). */
export function adjtimeReadout(r: AdjtimexResult = adjtimex()): AdjtimeReadout {
  const t = r.timex;
  return {
    offsetNs: t.status & STA_NANO ? t.offset : t.offset * 1000,
    frequencyAdjustmentRatio: 1 + t.freq / 65536 / 1_000_000,
    maxErrorUs: t.maxerror,
    estErrorUs: t.esterror,
    status: timexStatusString(t.status),
    state: r.state,
    constant: t.constant,
    syncStatus: (t.status & STA_UNSYNC) === 0,
  };
}

/** encodeTimex lays a Timex out as the ABI's struct timex. */
export function encodeTimex(t: Timex, l: TimexLayout): Buffer {
  const b = Buffer.alloc(l.size);
  const long = (off: number, v: number) =>
    l.long === 8 ? b.writeBigInt64LE(BigInt(Math.trunc(v)), off) : b.writeInt32LE(Math.trunc(v), off);
  b.writeUInt32LE(t.modes >>> 0, l.modes);
  long(l.offset, t.offset);
  long(l.freq, t.freq);
  long(l.maxerror, t.maxerror);
  long(l.esterror, t.esterror);
  b.writeInt32LE(t.status, l.status);
  long(l.constant, t.constant);
  long(l.precision, t.precision);
  long(l.tolerance, t.tolerance);
  long(l.timeSec, t.time.sec);
  long(l.timeUsec, t.time.usec);
  long(l.tick, t.tick);
  b.writeInt32LE(t.tai, l.tai);
  return b;
}

/** decodeTimex reads a struct timex back. */
export function decodeTimex(b: Buffer, l: TimexLayout): Timex {
  const long = (off: number) => (l.long === 8 ? Number(b.readBigInt64LE(off)) : b.readInt32LE(off));
  return {
    modes: b.readUInt32LE(l.modes),
    offset: long(l.offset),
    freq: long(l.freq),
    maxerror: long(l.maxerror),
    esterror: long(l.esterror),
    status: b.readInt32LE(l.status),
    constant: long(l.constant),
    precision: long(l.precision),
    tolerance: long(l.tolerance),
    time: { sec: long(l.timeSec), usec: long(l.timeUsec) },
    tick: long(l.tick),
    tai: b.readInt32LE(l.tai),
  };
}
