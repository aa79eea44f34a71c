// SequencerError: why a sequence did not start or did not finish.

export type SequencerErrorCode = 'locked' | 'canceled' | 'failed' | 'unsupported' | 'takeover-timeout';

export class SequencerError extends Error {
  constructor(
    readonly code: SequencerErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'SequencerError';
  }
}

const is = (e: unknown, c: SequencerErrorCode) => e instanceof SequencerError && e.code === c;
/** isLocked: another sequence runs and may not be cancelled by this one (upstream ErrLocked). */
export const isLocked = (e: unknown): boolean => is(e, 'locked');
/** isCanceled: a sequence allowed to take over stopped this one. */
export const isCanceled = (e: unknown): boolean => is(e, 'canceled');
