// Supervisor: loads services, starts them in dependency order, stops them in reverse, and reports their states.
import type { EventBus } from '../events/bus.js';
import type { LoggingManager } from '../logging/manager.js';
import { ServiceError } from './errors.js';
import { checkAcyclic, dependents, reverseDependents } from './graph.js';
import type { ServiceDefinition } from './service.js';
import { type ServiceInfo, ServiceRunner } from './service-runner.js';
import { stateAction } from './state.js';

export interface SupervisorOptions {
  readonly events: EventBus;
  readonly logs: LoggingManager;
  /** machined's log: one line per state change */
  readonly log?: (line: string) => void;
  /** how long a stop waits for a service (and its dependents) to end; default 30 s, as upstream */
  readonly stopTimeoutMs?: number;
}

export interface StopOptions {
  readonly signal?: AbortSignal;
}

export class Supervisor {
  readonly #opts: SupervisorOptions;
  readonly #services = new Map<string, ServiceRunner>();
  #denied = false;
  #startedAll = false;
  #waiters: (() => void)[] = [];

  constructor(opts: SupervisorOptions) {
    this.#opts = opts;
  }

  /** load registers services (an id already loaded is kept as is); it fails during shutdown or on a cycle. */
  load(...defs: ServiceDefinition[]): void {
    this.#denyCheck(defs.map((d) => d.id).join(', '));
    const deps = new Map([...this.#services].map(([id, s]) => [id, s.def.dependsOn ?? []]));
    const fresh = defs.filter((d) => !this.#services.has(d.id));
    for (const d of fresh) deps.set(d.id, d.dependsOn ?? []);
    checkAcyclic(deps);
    for (const d of fresh) this.#services.set(d.id, this.#runner(d));
  }

  /**
   * replace gives a loaded service a new definition. The service alone is stopped (its dependents keep
   * running, as they would through any restart of it) and, if it was active, started again with the new
   * definition; its event history carries on. It fails during shutdown or on a cycle.
   */
  async replace(def: ServiceDefinition, opts: StopOptions = {}): Promise<void> {
    this.#denyCheck(def.id);
    const runner = this.#get(def.id);
    const deps = this.#deps();
    deps.set(def.id, def.dependsOn ?? []);
    checkAcyclic(deps);
    const wasActive = runner.active;
    await this.#stopSet([def.id], opts, false);
    runner.redefine(def);
    // a shutdown may have begun while it stopped: then it stays stopped
    if (wasActive && !this.#denied) runner.start();
  }

  /** unload stops a service (those depending on it first) and forgets it. */
  async unload(id: string, opts: StopOptions = {}): Promise<void> {
    await this.stop(id, opts);
    this.#services.delete(id);
  }

  /** start begins the given services; each waits for its dependencies itself, so order does not matter. */
  start(...ids: string[]): void {
    this.#denyCheck(ids.join(', '));
    // every id is checked before any starts, so a typo starts nothing
    for (const runner of ids.map((id) => this.#get(id))) runner.start();
  }

  /** startAll starts every loaded service that is not already active. */
  startAll(): void {
    this.start(...this.#services.keys());
    this.#startedAll = true;
  }

  /**
   * startedAll: the Boot sequence has started every service. A service loaded before then (from a spec
   * that was ready early) waits for it, as upstream's services wait for /var and the boot.
   */
  get startedAll(): boolean {
    return this.#startedAll;
  }

  /** waitFor resolves once every listed service is up or finished for good (upstream StartAllServices). */
  async waitFor(ids: readonly string[], { signal }: { signal: AbortSignal }): Promise<void> {
    await this.#until(
      () =>
        ids.every((id) => {
          const s = this.#services.get(id);
          return s !== undefined && (s.info().up || s.state === 'Finished');
        }),
      signal,
    );
  }

  /** denyNewServices refuses loads and starts from now on (shutdown, reboot, upgrade). */
  denyNewServices(): void {
    this.#denied = true;
  }

  get denied(): boolean {
    return this.#denied;
  }

  /** stop stops the services that depend on `id` first, then `id`. */
  async stop(id: string, opts: StopOptions = {}): Promise<void> {
    this.#get(id);
    await this.#stopSet([id, ...reverseDependents(this.#deps(), id)], opts);
  }

  /** stopAll stops every service, each only after all services depending on it have stopped. */
  async stopAll(opts: StopOptions = {}): Promise<void> {
    await this.#stopSet([...this.#services.keys()], opts);
  }

  info(id: string): ServiceInfo {
    return this.#get(id).info();
  }

  list(): ServiceInfo[] {
    return [...this.#services.keys()].sort().map((id) => this.info(id));
  }

  async #stopSet(ids: readonly string[], { signal }: StopOptions, withDependents = true): Promise<void> {
    const deps = withDependents ? this.#deps() : new Map<string, readonly string[]>();
    const set = new Set(ids);
    const stopping = new Map<string, Promise<void>>();
    const stopOne = (id: string): Promise<void> => {
      let p = stopping.get(id);
      if (!p) {
        const before = dependents(deps, id).filter((d) => set.has(d));
        p = Promise.all(before.map(stopOne)).then(() => this.#get(id).stop());
        stopping.set(id, p);
      }
      return p;
    };
    const all = Promise.all(ids.map(stopOne)).then(() => {});
    const timeoutMs = this.#opts.stopTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    let onAbort = (): void => {};
    const limited = new Promise<never>((_, reject) => {
      onAbort = () => {
        const pending = ids.filter((id) => this.#services.get(id)?.active);
        reject(new ServiceError('stop-timeout', `services did not stop in time: ${pending.join(', ')}`));
      };
      timer = setTimeout(onAbort, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([all, limited]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #runner(def: ServiceDefinition): ServiceRunner {
    const { events, logs, log } = this.#opts;
    return new ServiceRunner(def, {
      log: logs.serviceLog(def.id),
      waitForServices: (ids, signal) =>
        this.#until(() => ids.every((id) => this.#services.get(id)?.info().up === true), signal),
      onChange: (info, ev) => {
        log?.(`service[${info.id}](${ev.state}): ${ev.msg}`);
        events.publish({
          type: 'machine.ServiceStateEvent',
          service: info.id,
          action: stateAction(ev.state),
          message: ev.msg,
          health: info.health,
        });
        const waiters = this.#waiters;
        this.#waiters = [];
        for (const w of waiters) w();
      },
    });
  }

  #deps(): Map<string, readonly string[]> {
    return new Map([...this.#services].map(([id, s]) => [id, s.def.dependsOn ?? []]));
  }

  #get(id: string): ServiceRunner {
    const s = this.#services.get(id);
    if (!s) throw new ServiceError('unknown-service', `service ${JSON.stringify(id)} is not loaded`);
    return s;
  }

  #denyCheck(what: string): void {
    if (this.#denied)
      throw new ServiceError('shutting-down', `new services are denied during shutdown: ${what}`);
  }

  /** until resolves when `ok()` holds, re-checking after every service change; it rejects on abort. */
  async #until(ok: () => boolean, signal: AbortSignal): Promise<void> {
    while (!ok()) {
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          this.#waiters = this.#waiters.filter((w) => w !== wake);
          reject(signal.reason);
        };
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        this.#waiters.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
