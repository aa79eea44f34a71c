// Runtime options: one object with defaults as upstream (no rate limit, metrics on, no cache).
import type { BackoffSettings } from './internal/backoff.js';
import type { RateLimit } from './internal/rate-limit.js';
import type { Logger } from './logger.js';
import type { KindLike } from './reader-writer.js';

export type { BackoffSettings } from './internal/backoff.js';
export type { RateLimit } from './internal/rate-limit.js';

export interface RuntimeOptions {
  /** per-controller token bucket every write and finalizer change waits on; default unlimited */
  changeRateLimit?: RateLimit;
  /** record metrics (default true) */
  metrics?: boolean;
  /** kinds served to controllers from a watch-fed cache; the rest are read from the state */
  cachedResources?: readonly KindLike[];
  /** restart backoff of crashed controllers and per-item backoff of QControllers; defaults as upstream */
  restartBackoff?: Partial<BackoffSettings>;
  /** default: warnings and errors to stderr */
  logger?: Logger;
}
