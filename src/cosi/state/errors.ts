// State errors, classified by behaviour: callers ask "is this a conflict?", never "which class is it?".
import { type Pointer, pointerString } from '../resource/kind.js';

export type StateErrorCode =
  | 'not-found'
  /** create of an existing resource */
  | 'already-exists'
  /** optimistic-lock failure: the stored version moved on */
  | 'version-conflict'
  /** destroy while finalizers remain */
  | 'pending-finalizers'
  | 'owner-conflict'
  | 'phase-conflict'
  | 'invalid-bookmark'
  | 'invalid-argument'
  | 'unsupported'
  /** a conflict reported by a remote state whose finer class is unknown */
  | 'conflict';

const CONFLICTS: ReadonlySet<StateErrorCode> = new Set([
  'conflict',
  'already-exists',
  'version-conflict',
  'pending-finalizers',
  'owner-conflict',
  'phase-conflict',
]);

const BRAND = Symbol.for('cosi.state.error');

export class StateError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: StateErrorCode,
    message: string,
    readonly ref?: Pointer,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'StateError';
  }
}

const asStateError = (e: unknown): StateError | undefined => {
  for (let cur = e, depth = 0; cur && depth < 8; depth++) {
    if (typeof cur === 'object' && (cur as Record<symbol, unknown>)[BRAND]) return cur as StateError;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
};

export interface ConflictFilter {
  type?: string;
  namespace?: string;
}

export const isNotFound = (e: unknown): boolean => asStateError(e)?.code === 'not-found';
export const isOwnerConflict = (e: unknown): boolean => asStateError(e)?.code === 'owner-conflict';
export const isPhaseConflict = (e: unknown): boolean => asStateError(e)?.code === 'phase-conflict';
export const isInvalidBookmark = (e: unknown): boolean => asStateError(e)?.code === 'invalid-bookmark';
export const isUnsupported = (e: unknown): boolean => asStateError(e)?.code === 'unsupported';
export const isInvalidArgument = (e: unknown): boolean => asStateError(e)?.code === 'invalid-argument';

/** isConflict covers every conflict class, optionally narrowed to the conflicting resource's type/namespace. */
export function isConflict(e: unknown, filter: ConflictFilter = {}): boolean {
  const se = asStateError(e);
  if (!se || !CONFLICTS.has(se.code)) return false;
  if (filter.type !== undefined && se.ref?.type !== filter.type) return false;
  if (filter.namespace !== undefined && se.ref?.namespace !== filter.namespace) return false;
  return true;
}

/** stateErrorCode reads the code through wrapping causes. */
export const stateErrorCode = (e: unknown): StateErrorCode | undefined => asStateError(e)?.code;

// Constructors with the upstream message texts.
export const errNotFound = (p: Pointer) =>
  new StateError('not-found', `resource ${pointerString(p)} doesn't exist`, p);
export const errAlreadyExists = (p: Pointer) =>
  new StateError('already-exists', `resource ${pointerString(p)} already exists`, p);
export const errVersionConflict = (p: Pointer, expected: string, actual: string) =>
  new StateError(
    'version-conflict',
    `resource ${pointerString(p)} update conflict: expected version ${JSON.stringify(expected)}, actual version ${JSON.stringify(actual)}`,
    p,
  );
export const errOwnerConflict = (p: Pointer, owner: string) =>
  new StateError('owner-conflict', `resource ${pointerString(p)} is owned by ${JSON.stringify(owner)}`, p);
export const errPhaseConflict = (p: Pointer, expected: string) =>
  new StateError('phase-conflict', `resource ${pointerString(p)} is not in phase ${expected}`, p);
export const errPendingFinalizers = (p: Pointer, fins: readonly string[]) =>
  new StateError(
    'pending-finalizers',
    `resource ${pointerString(p)} has pending finalizers [${fins.join(' ')}]`,
    p,
  );
export const errInvalidBookmark = () => new StateError('invalid-bookmark', 'invalid watch bookmark');
export const errInvalidArgument = (msg: string) => new StateError('invalid-argument', msg);
export const errUnsupported = (msg: string) => new StateError('unsupported', msg);
