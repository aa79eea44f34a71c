// The time sync loop (upstream's internal/pkg/ntp Syncer): query the last good server or walk the list,
// correct the clock (a step past 400 ms, a kernel PLL slew below), and poll between 32 s and 2048 s,
// backing off while the offset stays small. The clock is reached only through the injected adjustTime.
import {
  ADJ_ESTERROR,
  ADJ_MAXERROR,
  ADJ_NANO,
  ADJ_OFFSET,
  ADJ_SETOFFSET,
  ADJ_STATUS,
  ADJ_TIMECONST,
  type AdjtimexResult,
  STA_DEL,
  STA_INS,
  STA_PLL,
  type Timex,
  timexStatusString,
} from '../clock.js';
import { isKissOfDeath } from './errors.js';
import { LEAP_ADD_SECOND, LEAP_DEL_SECOND, type Leap } from './packet.js';
import { type NtpResponse, type QueryOptions, queryAddress } from './query.js';
import { resolveServer } from './resolve.js';
import { SpikeDetector } from './spike.js';

const MS = 1_000_000n;
const SECOND = 1_000_000_000n;

export const MIN_POLL_MS = 32_000;
export const MAX_POLL_MS = 2_048_000;
export const RETRY_POLL_MS = 1_000;
/** offsets beyond this are stepped; smaller ones are slewed by the kernel */
export const ADJUST_TIME_LIMIT_NS = 400n * MS;
/** a correction beyond this is an epoch change: consumers of wall-clock time should re-check */
export const EPOCH_LIMIT_NS = 15n * 60n * SECOND;
/** the accuracy the poll interval is tuned for */
export const EXPECTED_ACCURACY_NS = 200n * MS;

export interface SyncLogger {
  debug(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  info(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  error(msg: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** AdjustTime applies a struct timex to the clock: the real one is adjtimex from src/sys/clock. */
export type AdjustTime = (req: Partial<Timex>) => AdjtimexResult;

export interface SyncerOptions {
  servers: readonly string[];
  adjustTime: AdjustTime;
  logger?: SyncLogger;
  /** the NTP port of every server (tests point it at a local server) */
  port?: number;
  queryTimeoutMs?: number;
  /** the local clock as queries read it, Unix ns; a test simulates a wrong clock with it */
  now?: () => bigint;
  minPollMs?: number;
  maxPollMs?: number;
  retryPollMs?: number;
  /** one exchange with an address; the real client unless a unit test replaces it */
  query?: (address: string, opts: QueryOptions) => Promise<NtpResponse>;
  resolve?: (server: string, opts: { signal?: AbortSignal }) => Promise<string[]>;
  /** called once, after the first successful correction */
  onSynced?: () => void;
  /** called after each correction larger than EPOCH_LIMIT_NS */
  onEpochChange?: () => void;
}

/** Measurement is what one query contributes to the clock. */
export interface Measurement {
  readonly clockOffset: bigint;
  readonly leap: Leap;
  readonly spike: boolean;
}

const noop = () => {};
const quiet: SyncLogger = { debug: noop, info: noop, warn: noop, error: noop };

/** Syncer keeps the clock in step with a list of servers until its run's signal aborts. */
export class Syncer {
  readonly #o: SyncerOptions;
  readonly #log: SyncLogger;
  #servers: readonly string[];
  #lastServer = '';
  #synced = false;
  #restart = false;
  #wake: (() => void) | undefined;
  #spikes = new SpikeDetector();
  #firstSync = true;

  constructor(opts: SyncerOptions) {
    this.#o = opts;
    this.#log = opts.logger ?? quiet;
    this.#servers = [...opts.servers];
  }

  get synced(): boolean {
    return this.#synced;
  }

  /** setTimeServers replaces the list; a change restarts the loop at once with the new servers. */
  setTimeServers(servers: readonly string[]): void {
    if (servers.length === this.#servers.length && servers.every((s, i) => s === this.#servers[i])) return;
    this.#servers = [...servers];
    this.#lastServer = '';
    this.#restart = true;
    this.#wake?.();
  }

  /** run loops until the signal aborts; it resolves then, and never throws for a server's failure. */
  async run(signal: AbortSignal): Promise<void> {
    const minPoll = this.#o.minPollMs ?? MIN_POLL_MS;
    const maxPoll = this.#o.maxPollMs ?? MAX_POLL_MS;
    const retryPoll = this.#o.retryPollMs ?? RETRY_POLL_MS;
    let poll = 0;
    let failures = 0;
    while (!signal.aborted) {
      const { server, measurement, kissed } = await this.#query(signal);
      if (signal.aborted) return;
      poll = nextPollInterval(poll, measurement, { minPoll, maxPoll, retryPoll });
      // unlike upstream's steady one-second retry, a node with no server in reach backs off (1 s, 2 s, …
      // up to the minimum poll), so an air-gapped node does not query and log every second
      failures = measurement ? 0 : failures + 1;
      if (!measurement && failures > 1)
        poll = Math.max(poll, Math.min(retryPoll * 2 ** (failures - 1), minPoll));
      // a kiss-o'-death asks for fewer queries, never for the one-second retry
      if (!measurement && kissed) poll = Math.max(poll, minPoll);
      if (measurement && !measurement.spike) {
        try {
          this.#adjust(measurement, server, poll);
          if (!this.#synced) {
            this.#synced = true;
            this.#o.onSynced?.();
          }
        } catch (e) {
          this.#log.error('error adjusting time', { error: e });
        }
      }
      await this.#sleep(poll, signal);
    }
  }

  async #query(signal: AbortSignal): Promise<{ server: string; measurement?: Measurement; kissed: boolean }> {
    let kissed = false;
    const ask = async (address: string): Promise<Measurement | undefined> => {
      try {
        const r = await (this.#o.query ?? queryAddress)(address, {
          signal,
          ...(this.#o.port === undefined ? {} : { port: this.#o.port }),
          ...(this.#o.queryTimeoutMs === undefined ? {} : { timeoutMs: this.#o.queryTimeoutMs }),
          ...(this.#o.now ? { now: this.#o.now } : {}),
        });
        const spike = this.#spikes.isSpike({ offset: seconds(r.clockOffset), rtt: seconds(r.rtt) });
        this.#log.debug('NTP response', {
          server: address,
          clockOffsetNs: r.clockOffset,
          rttNs: r.rtt,
          stratum: r.stratum,
        });
        return { clockOffset: r.clockOffset, leap: r.leap, spike };
      } catch (e) {
        if (signal.aborted) return undefined;
        if (isKissOfDeath(e)) kissed = true;
        this.#log.error(`time query error with server ${JSON.stringify(address)}`, { error: e });
        return undefined;
      }
    };

    const last = this.#lastServer;
    if (last) {
      const m = await ask(last);
      if (m) return { server: last, measurement: m, kissed };
    }
    this.#restart = false;
    for (const address of await this.#resolveAll(signal)) {
      if (address === last) continue; // it just failed: do not ask it twice in a row
      if (signal.aborted || this.#restart) break; // the list changed under us: the outer loop starts over
      const m = await ask(address);
      if (m) {
        this.#lastServer = address;
        return { server: address, measurement: m, kissed };
      }
    }
    this.#lastServer = '';
    return { server: '', kissed };
  }

  async #resolveAll(signal: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    for (const server of this.#servers) {
      try {
        out.push(...(await (this.#o.resolve ?? resolveServer)(server, { signal })));
      } catch (e) {
        if (signal.aborted) break;
        this.#log.error(`failed looking up ${JSON.stringify(server)}, ignored`, { error: e });
      }
    }
    return out;
  }

  #adjust(m: Measurement, server: string, pollMs: number): void {
    const req = adjustRequest(m.clockOffset, m.leap, pollMs);
    const jump = (req.modes! & ADJ_SETOFFSET) !== 0;
    const { state } = this.#o.adjustTime(req);
    const msg = `adjusting time (${jump ? 'jump' : 'slew'}) by ${formatNs(m.clockOffset)} via ${server}, state ${state}, status ${timexStatusString(req.status!)}`;
    // a step, and the first correction, are worth an info line; routine slews are debug
    if (jump || this.#firstSync) this.#log.info(msg);
    else this.#log.debug(msg);
    this.#firstSync = false;
    if (abs(m.clockOffset) > EPOCH_LIMIT_NS) this.#o.onEpochChange?.();
  }

  #sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.#restart || signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }
}

export interface PollLimits {
  readonly minPoll: number;
  readonly maxPoll: number;
  readonly retryPoll: number;
}

/** nextPollInterval is upstream's backoff: double while the offset is small, halve when it grows. */
export function nextPollInterval(pollMs: number, m: Measurement | undefined, l: PollLimits): number {
  let next = pollMs;
  const offset = m ? abs(m.clockOffset) : 0n;
  if (!m) next = l.retryPoll;
  else if (pollMs === 0) next = l.minPoll;
  else if (!m.spike && offset > EXPECTED_ACCURACY_NS) next = l.minPoll;
  else if (offset < EXPECTED_ACCURACY_NS / 4n) {
    if (next < l.maxPoll) next *= 2;
  } else if (m.spike || offset > (EXPECTED_ACCURACY_NS * 3n) / 4n) {
    if (next > l.minPoll) next /= 2;
  }
  if (m && next < l.minPoll) next = l.minPoll; // any answer earns at least the minimum interval
  return next;
}

/**
 * adjustRequest is the struct timex upstream's syncer hands to adjtimex: beyond 400 ms a relative step
 * (ADJ_SETOFFSET, atomic, unlike clock_settime); below it a PLL slew whose time constant follows the
 * poll interval. Both reset the error estimates and carry the server's leap-second warning.
 */
export function adjustRequest(offsetNs: bigint, leap: Leap, pollMs: number): Partial<Timex> {
  let req: Partial<Timex>;
  if (abs(offsetNs) > ADJUST_TIME_LIMIT_NS) {
    let sec = offsetNs / SECOND;
    let nsec = offsetNs % SECOND;
    if (nsec < 0n) {
      // the kernel wants the sub-second part non-negative
      sec -= 1n;
      nsec += SECOND;
    }
    req = {
      modes: ADJ_SETOFFSET | ADJ_NANO | ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR,
      time: { sec: Number(sec), usec: Number(nsec) },
      status: 0,
      maxerror: 0,
      esterror: 0,
    };
  } else {
    req = {
      modes: ADJ_OFFSET | ADJ_NANO | ADJ_STATUS | ADJ_TIMECONST | ADJ_MAXERROR | ADJ_ESTERROR,
      offset: Number(offsetNs),
      status: STA_PLL,
      maxerror: 0,
      esterror: 0,
      constant: log2i(Math.floor(pollMs / 1000)) - 4,
    };
  }
  if (leap === LEAP_ADD_SECOND) req.status! |= STA_INS;
  else if (leap === LEAP_DEL_SECOND) req.status! |= STA_DEL;
  return req;
}

/** isStep says whether a request steps the clock rather than slewing it. */
export const isStep = (req: Partial<Timex>): boolean => ((req.modes ?? 0) & ADJ_SETOFFSET) !== 0;

/** log2i is floor(log2(v)), 0 for 0 and 1. */
const log2i = (v: number): number => (v <= 1 ? 0 : Math.floor(Math.log2(v)));
const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const seconds = (ns: bigint): number => Number(ns) / 1e9;
const formatNs = (ns: bigint): string => `${(Number(ns) / 1e6).toFixed(3)}ms`;
