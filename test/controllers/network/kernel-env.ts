// Test helpers for the kernel-facing network controllers: a runtime on in-memory state whose log is
// kept (refusals are asserted on by their errno), and iproute2's JSON in this file's namespace.
import {
  type Controller,
  type LogFields,
  type Logger,
  type MetricName,
  Runtime,
} from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { ip } from '../../sys/netns.js';

const FAST = { initial: 1, multiplier: 1.5, randomization: 0.5, max: 10 };

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly msg: string;
  readonly fields: LogFields;
}

export interface KernelEnv {
  readonly state: State;
  readonly runtime: Runtime;
  readonly logs: LogEntry[];
  stop(): Promise<void>;
}

/** startKernelRuntime runs the controllers on a fresh in-memory state, logging into `logs`, until stop(). */
export function startKernelRuntime(controllers: readonly Controller[]): KernelEnv {
  const logs: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (msg: string, fields: LogFields = {}) =>
      logs.push({ level, msg, fields });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const state = wrapCore(newInmemState());
  const runtime = new Runtime(state, { logger, restartBackoff: FAST });
  for (const c of controllers) runtime.register(c);
  const ac = new AbortController();
  const done = runtime.run({ signal: ac.signal });
  let stopped: Promise<void> | undefined;
  return {
    state,
    runtime,
    logs,
    stop() {
      stopped ??= (async () => {
        ac.abort();
        await done;
      })();
      return stopped;
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: iproute2's JSON
export const ipj = (...args: string[]): any[] => JSON.parse(ip('-j', ...args) || '[]');

/** counter reads one runtime counter of one controller. */
export const counter = (env: KernelEnv, metric: MetricName, controller: string): number =>
  env.runtime.metrics()[metric][controller] ?? 0;

/** waitFor re-checks `check` every 10 ms until it passes (returning the elapsed ms) or `timeoutMs` passes. */
export async function waitFor(check: () => unknown, timeoutMs = 10_000): Promise<number> {
  const t0 = performance.now();
  let last: unknown;
  for (;;) {
    try {
      await check();
      return performance.now() - t0;
    } catch (e) {
      last = e;
    }
    if (performance.now() - t0 > timeoutMs) throw last;
    await new Promise((r) => setTimeout(r, 10));
  }
}
