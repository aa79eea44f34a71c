// Classic controller runner: coalesced wake-ups, input updates, output tracking and restart with backoff.
import type { Kind } from '../../resource/kind.js';
import {
  CONTROLLER_INPUT_KINDS,
  type Controller,
  type ControllerRuntime,
  type Input,
} from '../controller.js';
import { ControllerError } from '../errors.js';
import { errorText, type Logger, withFields } from '../logger.js';
import type { ReducedResourceMetadata } from '../qcontroller.js';
import { kindOf } from '../reader-writer.js';
import { sleep } from './abort.js';
import { type StateAdapter, stateAdapter } from './adapter.js';
import { type Backoff, exponentialBackoff } from './backoff.js';
import { compareInputs, inputString, sameTarget } from './dependency-db.js';
import { distinctKinds, type RunnerEnv } from './env.js';
import { type OutputTracker, outputTracker } from './output-tracker.js';
import { rateLimiter } from './rate-limit.js';
import { wakes } from './routing.js';
import { Trigger } from './trigger.js';
import { nextTurn } from './turns.js';

const q = (s: string): string => JSON.stringify(s);

export class ControllerRunner {
  readonly name: string;
  readonly #ctrl: Controller;
  readonly #env: RunnerEnv;
  readonly #trigger = new Trigger();
  readonly #backoff: Backoff;
  readonly #tracker: OutputTracker;
  readonly #adapter: StateAdapter;
  readonly #rt: ControllerRuntime;
  readonly #logger: Logger;
  #inputs: readonly Input[] = [];

  /** the constructor registers outputs and inputs in the dependency database (all or nothing). */
  constructor(ctrl: Controller, env: RunnerEnv) {
    this.name = ctrl.name;
    this.#ctrl = ctrl;
    this.#env = env;
    this.#logger = withFields(env.logger, { controller: ctrl.name });
    this.#backoff = exponentialBackoff(env.backoff);
    this.#adapter = stateAdapter({
      name: ctrl.name,
      state: env.state,
      metrics: env.metrics,
      cache: env.cache,
      limiter: rateLimiter(env.rateLimit),
      signal: env.signal,
      inputs: () => this.#inputs,
      outputs: ctrl.outputs,
      onWrite: (ptr) => this.#tracker.touched(ptr),
    });
    this.#tracker = outputTracker(ctrl.name, () => this.#adapter);
    this.#rt = this.#runtime();
    try {
      for (const out of ctrl.outputs) env.db.addOutput(ctrl.name, out);
      this.#applyInputs(ctrl.inputs);
    } catch (e) {
      env.db.removeController(ctrl.name);
      throw e;
    }
    this.#wake(); // the first reconcile happens at startup
  }

  /** kinds this controller needs watched. */
  kinds(): Kind[] {
    return distinctKinds(this.#inputs);
  }

  /** watchTrigger wakes the controller for a changed resource, honouring destroy-ready inputs. */
  watchTrigger(md: ReducedResourceMetadata): void {
    if (wakes(this.#inputs, md)) this.#wake();
  }

  /** run calls the controller until it returns (finished) or the signal aborts; throws restart it with backoff. */
  async run(signal: AbortSignal): Promise<void> {
    for (;;) {
      const failure = await this.#runOnce(signal);
      if (failure === undefined) return;
      this.#env.metrics.add('controller_crashes', this.name, 1);
      const interval = this.#backoff.next();
      this.#logger.debug('restarting controller', { interval });
      if (!(await sleep(interval, signal))) return;
      this.#wake(); // the restarted loop must reconcile at once
    }
  }

  async #runOnce(signal: AbortSignal): Promise<{ error: unknown } | undefined> {
    try {
      this.#logger.debug('controller starting');
      await this.#ctrl.run(this.#rt, { signal, logger: this.#logger });
      this.#logger.debug('controller finished');
      return undefined;
    } catch (error) {
      if (signal.aborted) return undefined; // stopping is not a crash
      this.#logger.error('controller failed', { error: errorText(error) });
      return { error };
    } finally {
      this.#tracker.drop();
    }
  }

  #wake(): void {
    if (this.#trigger.fire()) this.#env.metrics.add('controller_wakeups', this.name, 1);
  }

  /** applyInputs diffs the new inputs against the database (sorted merge) and records them. */
  #applyInputs(next: readonly Input[]): void {
    for (const i of next)
      if (!CONTROLLER_INPUT_KINDS.includes(i.kind))
        throw new ControllerError(
          'invalid-declaration',
          `invalid input kind ${q(i.kind)} for controller ${q(this.name)}`,
        );
    const want = [...next].sort(compareInputs);
    for (let k = 1; k < want.length; k++)
      if (sameTarget(want[k - 1]!, want[k]!))
        throw new ControllerError(
          'dependency-conflict',
          `duplicate controller input: ${q(this.name)} -> ${inputString(want[k]!)}`,
        );
    const have = this.#env.db.inputs(this.name);
    let i = 0;
    let j = 0;
    while (i < want.length || j < have.length) {
      const a = want[i];
      const b = have[j];
      if (a && b && compareInputs(a, b) === 0) {
        i++;
        j++;
        continue;
      }
      // same target with another kind: replace; otherwise the smaller side is the one to add or delete
      const replace = a !== undefined && b !== undefined && sameTarget(a, b);
      if (b && (replace || !a || compareInputs(a, b) > 0)) {
        this.#env.db.deleteInput(this.name, b);
        j++;
      }
      if (a && (replace || !b || compareInputs(a, b) < 0)) {
        this.#env.db.addInput(this.name, a);
        i++;
      }
    }
    this.#inputs = Object.freeze(want);
  }

  #runtime(): ControllerRuntime {
    const self = this;
    return {
      ...this.#adapter,
      async *events(signal?: AbortSignal) {
        const run = self.#env.signal();
        const signals = signal ? [signal, run] : [run];
        while (await self.#trigger.wait(...signals)) {
          await nextTurn();
          if (signals.some((s) => s.aborted)) return;
          yield;
        }
      },
      queueReconcile: () => this.#wake(),
      resetBackoff: () => this.#backoff.reset(),
      updateInputs: async (inputs) => {
        this.#applyInputs(inputs);
        // every kind, not only new ones: a watch that failed earlier is retried here
        await Promise.all(this.kinds().map((k) => this.#env.watch(k)));
      },
      startTrackingOutputs: () => this.#tracker.start(),
      cleanupOutputs: async (...kinds) => {
        await this.#tracker.cleanup(
          kinds.map((k) => kindOf(k)),
          this.#env.signal(),
        );
        this.#backoff.reset();
      },
      recordMetric: (name, value) => this.#env.metrics.add(name, this.name, value),
    };
  }
}
