// In-memory state options: history ring sizing and the optional backing store.
import type { BackingStore } from '../backing-store.js';
import { errInvalidArgument } from '../errors.js';

export interface InmemOptions {
  /** ring slots each (namespace, type) starts with; default 100 */
  historyInitialCapacity?: number;
  /** the ring doubles up to this during its first wrap; default max(100, initial) */
  historyMaxCapacity?: number;
  /** oldest slots treated as unsafe for tails and bookmarks; default 5 */
  historyGap?: number;
  /** loaded once before the first operation, then written through */
  backingStore?: BackingStore;
}

export interface ResolvedOptions {
  readonly initialCapacity: number;
  readonly maxCapacity: number;
  readonly gap: number;
  readonly store: BackingStore | undefined;
}

const DEFAULT_CAPACITY = 100;
const DEFAULT_GAP = 5;

const whole = (name: string, v: number, min: number): number => {
  if (!Number.isSafeInteger(v) || v < min)
    throw errInvalidArgument(`${name} must be an integer ≥ ${min}, got ${v}`);
  return v;
};

/** resolveOptions applies the defaults and rejects sizes the ring cannot honour. */
export function resolveOptions(o: InmemOptions = {}): ResolvedOptions {
  const initialCapacity = whole('historyInitialCapacity', o.historyInitialCapacity ?? DEFAULT_CAPACITY, 1);
  const maxCapacity = whole(
    'historyMaxCapacity',
    o.historyMaxCapacity ?? Math.max(DEFAULT_CAPACITY, initialCapacity),
    1,
  );
  if (maxCapacity < initialCapacity)
    throw errInvalidArgument(
      `historyMaxCapacity ${maxCapacity} is less than historyInitialCapacity ${initialCapacity}`,
    );
  const gap = whole('historyGap', o.historyGap ?? Math.min(DEFAULT_GAP, initialCapacity - 1), 0);
  if (gap >= initialCapacity)
    throw errInvalidArgument(`historyGap ${gap} must be less than historyInitialCapacity ${initialCapacity}`);
  return { initialCapacity, maxCapacity, gap, store: o.backingStore };
}
