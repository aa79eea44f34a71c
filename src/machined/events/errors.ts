// EventsError: the one error class of the events bus, classified by code.

export type EventsErrorCode = 'overrun' | 'invalid-tail';

export class EventsError extends Error {
  constructor(
    readonly code: EventsErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'EventsError';
  }
}

/** isOverrun: a watcher fell further behind than the bus keeps history, so events were lost. */
export const isOverrun = (e: unknown): boolean => e instanceof EventsError && e.code === 'overrun';
