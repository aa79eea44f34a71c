// The Runner contract: run a workload until it ends or the signal asks it to stop.
import type { ServiceState } from './state.js';

/** RunOutcome: how one run ended. `stopped` means it ended because it was asked to. */
export type RunOutcome =
  | { readonly type: 'success' }
  | { readonly type: 'failure'; readonly error: Error }
  | { readonly type: 'stopped' };

/** LogSink receives the workload's output (stdout and stderr interleaved, as upstream). */
export interface LogSink {
  write(data: Buffer | string): void;
}

export interface RunnerContext {
  /** aborting asks the workload to stop: gracefully first, forcibly after the runner's grace period */
  readonly signal: AbortSignal;
  readonly log: LogSink;
  /** report a state change (Running once started) with a message for the service's events */
  sink(state: ServiceState, message: string): void;
}

/**
 * Runner runs one attempt of a service. run never rejects: every failure is a `failure` outcome, so
 * a faulty workload can never escape into machined.
 */
export interface Runner {
  readonly kind: 'process' | 'in-process' | 'containerd';
  run(ctx: RunnerContext): Promise<RunOutcome>;
  toString(): string;
}

/** failure turns whatever a workload threw into a failure outcome with an Error in it. */
export const failure = (error: unknown): RunOutcome => ({
  type: 'failure',
  error: error instanceof Error ? error : new Error(String(error)),
});
