// ServiceEvents: the last 64 state changes of one service, as ServiceInfo.events reports them.
import type { ServiceState } from './state.js';

/** MAX_EVENTS_TO_KEEP is upstream's MaxEventsToKeep. */
export const MAX_EVENTS_TO_KEEP = 64;

export interface ServiceEvent {
  readonly msg: string;
  readonly state: ServiceState;
  readonly ts: Date;
  /** when the event announces a restart: the backoff waited before it */
  readonly restartDelayMs?: number;
}

export class ServiceEvents {
  readonly #items: ServiceEvent[] = [];
  readonly #max: number;

  constructor(max = MAX_EVENTS_TO_KEEP) {
    this.#max = max;
  }

  push(ev: ServiceEvent): void {
    this.#items.push(ev);
    if (this.#items.length > this.#max) this.#items.shift();
  }

  /** all is the kept events, oldest first. */
  all(): ServiceEvent[] {
    return [...this.#items];
  }
}
