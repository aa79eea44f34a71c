// RunnerEnv: what the runtime lends each controller runner (state, registries, settings, watches).
import type { Kind } from '../../resource/kind.js';
import type { State } from '../../state/state.js';
import type { Logger } from '../logger.js';
import type { BackoffSettings } from './backoff.js';
import type { ResourceCache } from './cache.js';
import type { DependencyDatabase } from './dependency-db.js';
import type { MetricsRegistry } from './metrics.js';
import type { RateLimit } from './rate-limit.js';

export interface RunnerEnv {
  readonly state: State;
  readonly db: DependencyDatabase;
  readonly metrics: MetricsRegistry;
  readonly cache: ResourceCache;
  readonly logger: Logger;
  readonly backoff: BackoffSettings;
  readonly rateLimit: RateLimit | undefined;
  /** watch makes sure a kind is watched; resolves once the watch is established */
  watch(kind: Kind): Promise<void>;
  /** signal is the runtime's run signal (an aborted one before run starts) */
  signal(): AbortSignal;
}

/** distinctKinds lists each (namespace, type) once. */
export function distinctKinds(list: readonly Kind[]): Kind[] {
  const seen = new Map<string, Kind>();
  for (const k of list) seen.set(`${k.namespace}\0${k.type}`, { namespace: k.namespace, type: k.type });
  return [...seen.values()];
}
