// inProcessRunner: a service that is a function inside machined (apid-like servers, syslog, …).
import { failure, type LogSink, type Runner, type RunnerContext, type RunOutcome } from './runner.js';

export interface InProcessContext {
  /** aborted when the service is stopped; return (or throw) promptly after it */
  readonly signal: AbortSignal;
  readonly log: LogSink;
}

export type InProcessMain = (ctx: InProcessContext) => Promise<void> | void;

export interface InProcessRunnerOptions {
  /** how long to wait for the function to return after the stop request; default 10 s */
  readonly gracefulShutdownTimeoutMs?: number;
}

/**
 * inProcessRunner runs `main` as one attempt. A throw (sync or async) becomes a failure outcome, so
 * a faulty handler restarts under its policy instead of taking PID 1 down. A function that ignores
 * its stop signal cannot be killed: after the grace period it is abandoned and reported stopped.
 */
export function inProcessRunner(
  name: string,
  main: InProcessMain,
  opts: InProcessRunnerOptions = {},
): Runner {
  const label = `InProcess(${JSON.stringify(name)})`;
  return {
    kind: 'in-process',
    toString: () => label,
    run: (ctx) => runInProcess(label, main, opts, ctx),
  };
}

async function runInProcess(
  label: string,
  main: InProcessMain,
  opts: InProcessRunnerOptions,
  ctx: RunnerContext,
): Promise<RunOutcome> {
  if (ctx.signal.aborted) return { type: 'stopped' };
  ctx.sink('Running', `Service ${label} started in-process`);
  const run = (async () => main({ signal: ctx.signal, log: ctx.log }))().then(
    (): RunOutcome => (ctx.signal.aborted ? { type: 'stopped' } : { type: 'success' }),
    (error: unknown): RunOutcome => (ctx.signal.aborted ? { type: 'stopped' } : failure(error)),
  );
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => {};
  const abandoned = new Promise<RunOutcome>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => {
        ctx.log.write(`${label} ignored its stop request; abandoned\n`);
        resolve({ type: 'stopped' });
      }, opts.gracefulShutdownTimeoutMs ?? 10_000);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run, abandoned]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
