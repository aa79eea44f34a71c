// LoggingManager: one LogRing per log id (each service, machined itself, the kernel), made on first use.
import { LogRing, type LogRingOptions } from './ring.js';

/** Log ids with a fixed meaning, beside one per service id. */
export const MACHINED_LOG = 'machined';
export const KERNEL_LOG = 'kernel';
/** the controllers' log, as upstream names it */
export const CONTROLLER_RUNTIME_LOG = 'controller-runtime';

export class LoggingManager {
  readonly #rings = new Map<string, LogRing>();
  readonly #opts: LogRingOptions;

  constructor(opts: LogRingOptions = {}) {
    this.#opts = opts;
  }

  /** serviceLog returns the ring of `id`, creating it; it outlives restarts of the service. */
  serviceLog(id: string): LogRing {
    let ring = this.#rings.get(id);
    if (!ring) {
      ring = new LogRing(this.#opts);
      this.#rings.set(id, ring);
    }
    return ring;
  }

  /** find returns an existing ring only (the Logs API answers not-found otherwise). */
  find(id: string): LogRing | undefined {
    return this.#rings.get(id);
  }

  ids(): string[] {
    return [...this.#rings.keys()].sort();
  }
}
