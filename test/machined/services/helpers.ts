// Test helpers for the supervisor: real children tracked for cleanup, and waits on events (never sleeps).
import { spawn } from 'node:child_process';
import { EventBus } from '../../../src/machined/events/bus.js';
import type { MachineEvent, ServiceStateEvent } from '../../../src/machined/events/event.js';
import { LoggingManager } from '../../../src/machined/logging/manager.js';
import type { ServiceChild, SpawnFn } from '../../../src/machined/services/process-runner.js';
import { Supervisor } from '../../../src/machined/services/supervisor.js';

export interface TrackedChild {
  readonly child: ServiceChild;
  /** how it ended, once it has */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

/** tracked spawns real children (through `base`) and remembers them, so afterEach can kill any survivor. */
export function tracked(base: SpawnFn = spawn) {
  const children: TrackedChild[] = [];
  const fn: SpawnFn = (file, args, opts) => {
    const child = base(file, [...args], opts);
    const t: TrackedChild = { child };
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      t.exit = { code, signal };
    });
    children.push(t);
    return child;
  };
  const killAll = () => {
    for (const t of children) if (!t.exit && t.child.pid !== undefined) t.child.kill('SIGKILL');
  };
  return { spawn: fn, children, killAll };
}

export function newSupervisor() {
  const events = new EventBus({ capacity: 10_000 });
  const logs = new LoggingManager();
  const lines: string[] = [];
  const supervisor = new Supervisor({ events, logs, log: (l) => lines.push(l), stopTimeoutMs: 15_000 });
  return { events, logs, supervisor, lines };
}

export type SvcEvent = MachineEvent<ServiceStateEvent>;

const isSvc = (e: MachineEvent): e is SvcEvent => e.payload.type === 'machine.ServiceStateEvent';

/** serviceEvents lists the state events of one service so far. */
export const serviceEvents = (events: EventBus, id: string): ServiceStateEvent[] =>
  events
    .history()
    .filter(isSvc)
    .map((e) => e.payload)
    .filter((p) => p.service === id);

/**
 * waitService resolves with the state events of `id` once `done` holds for them; it re-checks on
 * every published event (from the whole history first).
 */
export async function waitService(
  events: EventBus,
  id: string,
  done: (evs: ServiceStateEvent[]) => boolean,
  timeoutMs = 20_000,
): Promise<ServiceStateEvent[]> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  const seen: ServiceStateEvent[] = [];
  try {
    for await (const ev of events.watch({ signal: ac.signal, tailEvents: -1 })) {
      if (!isSvc(ev) || ev.payload.service !== id) continue;
      seen.push(ev.payload);
      if (done(seen)) return seen;
    }
    throw new Error(
      `service ${id}: condition not met; events: ${seen.map((e) => `${e.action}:${e.message}`).join(' | ')}`,
    );
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

export const count = (evs: ServiceStateEvent[], action: ServiceStateEvent['action']) =>
  evs.filter((e) => e.action === action).length;

/** node runs a script in a real node child. */
export const node = (script: string): string[] => [process.execPath, '-e', script];
