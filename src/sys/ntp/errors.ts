// NtpError: why a server's answer cannot set the clock, classified by what the client should do next.

export type NtpErrorCode =
  /** no valid reply in time (replies from other addresses do not count) */
  | 'timeout'
  /** the server answered, but never to this request: the origin timestamp did not match */
  | 'origin-mismatch'
  /** stratum 0: the server sent a kiss code (RATE: poll less; DENY, RSTR: stop asking) */
  | 'kiss-of-death'
  /** the reply is not a server-mode (4) packet */
  | 'bad-mode'
  | 'bad-version'
  /** stratum above 15 */
  | 'bad-stratum'
  /** leap indicator 3: the server itself is not synchronised */
  | 'unsynchronized'
  /** the server's timestamps are zero, go backwards, or its reference is stale */
  | 'bad-time'
  /** root delay / 2 + root dispersion is beyond 16 s (RFC 5905's MAXDISP) */
  | 'bad-distance'
  | 'short-packet'
  /** the server's name did not resolve */
  | 'dns';

export class NtpError extends Error {
  override readonly name = 'NtpError';
  constructor(
    readonly code: NtpErrorCode,
    message: string,
    /** the kiss code ('RATE', 'DENY', …) of a kiss-o'-death reply */
    readonly kissCode?: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
  }
}

export const isNtpError = (e: unknown, ...codes: NtpErrorCode[]): e is NtpError =>
  e instanceof NtpError && (codes.length === 0 || codes.includes(e.code));

/** isKissOfDeath says a server asked us to back off (RATE) or to go away (DENY, RSTR). */
export const isKissOfDeath = (e: unknown, ...kiss: string[]): e is NtpError =>
  isNtpError(e, 'kiss-of-death') && (kiss.length === 0 || kiss.includes(e.kissCode ?? ''));
