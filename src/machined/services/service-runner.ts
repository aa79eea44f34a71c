// ServiceRunner: drives one service through its states: wait for dependencies, prepare, run, restart, stop.
import { setTimeout as delay } from 'node:timers/promises';
import { formatDuration } from '../sequencer/duration.js';
import { type Backoff, exponentialBackoff } from './backoff.js';
import { ServiceError } from './errors.js';
import { DEFAULT_HEALTH_SETTINGS, runHealth } from './health.js';
import { restartWording, shouldRestart } from './restart.js';
import { failure, type LogSink, type Runner, type RunOutcome } from './runner.js';
import type { ServiceContext, ServiceDefinition } from './service.js';
import { type ServiceEvent, ServiceEvents } from './service-events.js';
import { type HealthStatus, isUp, type ServiceState, UNKNOWN_HEALTH } from './state.js';

/** ServiceInfo is a snapshot of one service, as the Services API lists it. */
export interface ServiceInfo {
  readonly id: string;
  readonly state: ServiceState;
  readonly health: HealthStatus;
  readonly up: boolean;
  readonly events: ServiceEvent[];
  /** whether the service RPCs may start, stop and restart it */
  readonly apiControl: boolean;
}

export interface ServiceRunnerDeps {
  readonly log: LogSink;
  /** resolves once every listed service is up */
  waitForServices(ids: readonly string[], signal: AbortSignal): Promise<void>;
  /** called after every recorded event (state change or health change) */
  onChange(info: ServiceInfo, ev: ServiceEvent): void;
}

export class ServiceRunner {
  #def: ServiceDefinition;
  readonly #deps: ServiceRunnerDeps;
  readonly #events = new ServiceEvents();
  #backoff: Backoff;
  #state: ServiceState = 'Initialized';
  #health: HealthStatus = UNKNOWN_HEALTH;
  #abort: AbortController | undefined;
  #loop: Promise<void> | undefined;

  constructor(def: ServiceDefinition, deps: ServiceRunnerDeps) {
    this.#def = def;
    this.#deps = deps;
    this.#backoff = def.backoff ?? exponentialBackoff();
  }

  get def(): ServiceDefinition {
    return this.#def;
  }

  /** redefine swaps the definition of a stopped service, keeping its event history; the id stays. */
  redefine(def: ServiceDefinition): void {
    if (this.#loop) throw new ServiceError('busy', `service ${JSON.stringify(def.id)} is still running`);
    this.#def = def;
    this.#backoff = def.backoff ?? exponentialBackoff();
  }

  get state(): ServiceState {
    return this.#state;
  }

  /** active: a start is in progress (from Starting until the final state). */
  get active(): boolean {
    return this.#loop !== undefined;
  }

  info(): ServiceInfo {
    return {
      id: this.def.id,
      state: this.#state,
      health: this.#health,
      up: isUp(this.#state, this.#health, this.def.health !== undefined),
      events: this.#events.all(),
      apiControl: this.def.apiControl === true,
    };
  }

  /** start begins a run loop unless one is active; it says whether it began one. */
  start(): boolean {
    if (this.#loop) return false;
    const abort = new AbortController();
    this.#abort = abort;
    this.#loop = this.#run(abort.signal).finally(() => {
      this.#loop = undefined;
    });
    return true;
  }

  /** stop asks the loop to end and resolves when it has (the runner escalates to SIGKILL itself). */
  async stop(): Promise<void> {
    const loop = this.#loop;
    if (!loop) return;
    this.#abort?.abort();
    await loop;
  }

  async #run(signal: AbortSignal): Promise<void> {
    const ctx: ServiceContext = { signal, log: this.#deps.log };
    let final: ServiceState = 'Finished';
    let message = 'Service stopped';
    const onStop = () => {
      if (this.#state === 'Running') this.#set('Stopping', 'Stopping service');
    };
    signal.addEventListener('abort', onStop, { once: true });
    try {
      this.#set('Starting', 'Starting service');
      await this.#waitConditions(signal);
      this.#set('Preparing', 'Running pre stage');
      await this.def.pre?.(ctx);
      this.#set('Preparing', 'Creating service runner');
      const runner = await this.def.runner(ctx);
      if (!runner) {
        [final, message] = ['Skipped', 'Service skipped'];
        return;
      }
      [final, message] = await this.#attempts(runner, signal);
    } catch (error) {
      if (!signal.aborted) [final, message] = ['Failed', `Failed to run service: ${errorMessage(error)}`];
    } finally {
      signal.removeEventListener('abort', onStop);
      try {
        await this.def.post?.(ctx, final);
      } catch (error) {
        this.#deps.log.write(`post stage failed: ${errorMessage(error)}\n`);
      }
      this.#set(final, message);
    }
  }

  async #waitConditions(signal: AbortSignal): Promise<void> {
    const deps = this.def.dependsOn ?? [];
    const cond = this.def.condition;
    if (deps.length === 0 && !cond) return;
    const what = [
      ...deps.map((d) => `service ${JSON.stringify(d)} to be "up"`),
      ...(cond ? [cond.description] : []),
    ];
    this.#set('Waiting', `Waiting for ${what.join(', ')}`);
    await Promise.all([this.#deps.waitForServices(deps, signal), cond?.wait(signal)]);
  }

  /** attempts runs the runner under the restart policy; it returns the final state and its message. */
  async #attempts(runner: Runner, signal: AbortSignal): Promise<[ServiceState, string]> {
    const policy = this.def.restart ?? 'Forever';
    let attempt = 0;
    for (;;) {
      const started = Date.now();
      const outcome = await this.#attempt(runner, signal);
      if (outcome.type === 'stopped' || signal.aborted) return ['Finished', 'Service stopped'];
      const ok = outcome.type === 'success';
      if (!shouldRestart(policy, ok))
        return ok
          ? ['Finished', 'Service finished successfully']
          : ['Failed', `Failed to run service: ${outcome.error.message}`];
      const resetAfter = this.#backoff.resetAfterMs;
      if (resetAfter !== undefined && Date.now() - started >= resetAfter) attempt = 0;
      const wait = this.#backoff.delay(++attempt);
      const why = ok
        ? `Service exited, restarting in ${formatDuration(wait)}`
        : `Error running ${runner}, going to restart ${restartWording(policy)} in ${formatDuration(wait)}: ${outcome.error.message}`;
      this.#set('Waiting', why, wait);
      try {
        await delay(wait, undefined, { signal });
      } catch {
        return ['Finished', 'Service stopped'];
      }
    }
  }

  /** attempt is one run, with the health loop alongside it once the workload is running. */
  async #attempt(runner: Runner, signal: AbortSignal): Promise<RunOutcome> {
    const health = new AbortController();
    let checking: Promise<void> | undefined;
    const hc = this.def.health;
    try {
      // runners never reject by contract; one that does (a plugged-in runner) still counts as a failed run
      return await Promise.resolve()
        .then(() =>
          runner.run({
            signal,
            log: this.#deps.log,
            sink: (state, msg) => {
              this.#set(state, msg);
              if (state === 'Running' && hc && !checking)
                checking = runHealth(
                  hc.check,
                  { ...DEFAULT_HEALTH_SETTINGS, ...hc.settings },
                  (h) => {
                    this.#health = h;
                    this.#set(
                      this.#state,
                      h.healthy ? 'Health check successful' : `Health check failed: ${h.lastMessage}`,
                    );
                  },
                  { signal: AbortSignal.any([signal, health.signal]) },
                );
            },
          }),
        )
        .catch(failure);
    } finally {
      health.abort();
      await checking;
      this.#health = UNKNOWN_HEALTH;
    }
  }

  #set(state: ServiceState, msg: string, restartDelayMs?: number): void {
    this.#state = state;
    const ev: ServiceEvent = {
      msg,
      state,
      ts: new Date(),
      ...(restartDelayMs !== undefined ? { restartDelayMs } : {}),
    };
    this.#events.push(ev);
    this.#deps.onChange(this.info(), ev);
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
