// Exponential backoff with jitter for watch reconnects; the defaults are upstream's retry policy.

export interface BackoffOptions {
  /** first delay; default 500 ms */
  initialMs?: number;
  /** growth per attempt; default 1.5 */
  multiplier?: number;
  /** each delay is spread by ± this fraction, so clients that lost one server do not return in step; default 0.5 */
  randomization?: number;
  /** cap on a single delay; default 60 s */
  maxMs?: number;
  /** give up once this much time has passed since the last success; 0 never gives up; default 15 min */
  maxElapsedMs?: number;
}

/** ExponentialBackoff hands out growing delays until `maxElapsedMs` passes; `reset` after a success. */
export class ExponentialBackoff {
  readonly #initial: number;
  readonly #multiplier: number;
  readonly #randomization: number;
  readonly #max: number;
  readonly #maxElapsed: number;
  readonly #now: () => number;
  #current: number;
  #start: number;

  constructor(opts: BackoffOptions = {}, now: () => number = Date.now) {
    this.#initial = opts.initialMs ?? 500;
    this.#multiplier = opts.multiplier ?? 1.5;
    this.#randomization = opts.randomization ?? 0.5;
    this.#max = opts.maxMs ?? 60_000;
    this.#maxElapsed = opts.maxElapsedMs ?? 15 * 60_000;
    this.#now = now;
    this.#current = this.#initial;
    this.#start = now();
  }

  /** next is the delay before the next attempt, or undefined when it is time to give up. */
  next(): number | undefined {
    if (this.#maxElapsed > 0 && this.#now() - this.#start > this.#maxElapsed) return undefined;
    const spread = this.#current * this.#randomization;
    const delay = this.#current - spread + Math.random() * 2 * spread;
    this.#current = Math.min(this.#current * this.#multiplier, this.#max);
    return Math.max(0, Math.round(delay));
  }

  reset(): void {
    this.#current = this.#initial;
    this.#start = this.#now();
  }
}
