// Controller errors: one class with a code for declaration, registration and access failures,
// plus the two values a reconcile returns to steer the runtime (requeue, skip).

export type ControllerErrorCode =
  /** a controller declaration is invalid (caught by defineController/defineQController) */
  | 'invalid-declaration'
  /** registering would break the exclusive/shared output rules or duplicate an input */
  | 'dependency-conflict'
  /** a controller with this name is already registered */
  | 'already-registered'
  /** run was called twice */
  | 'already-started'
  /** the controller read, wrote or changed finalizers outside its declared inputs/outputs */
  | 'access-denied'
  /** a stored resource is not of the requested resource type */
  | 'type-mismatch'
  /** output tracking was started twice or cleaned up without being started */
  | 'output-tracking'
  /** a QController mapped an input to something that is not one of its primary inputs */
  | 'invalid-mapping'
  /** a runtime watch failed (overrun, transport); the runtime stops */
  | 'watch-failed';

const BRAND = Symbol.for('cosi.controller.error');

export class ControllerError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: ControllerErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ControllerError';
  }
}

/** findInChain walks `cause` links, so wrapping an error keeps its classification. */
const findInChain = <T>(e: unknown, pick: (x: object) => T | undefined): T | undefined => {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 8; depth++) {
    const hit = pick(cur);
    if (hit !== undefined) return hit;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
};

export const controllerErrorCode = (e: unknown): ControllerErrorCode | undefined =>
  findInChain(e, (x) => ((x as Record<symbol, unknown>)[BRAND] ? (x as ControllerError).code : undefined));

export const isAccessDenied = (e: unknown): boolean => controllerErrorCode(e) === 'access-denied';
export const isTypeMismatch = (e: unknown): boolean => controllerErrorCode(e) === 'type-mismatch';
export const isDependencyConflict = (e: unknown): boolean => controllerErrorCode(e) === 'dependency-conflict';

const REQUEUE = Symbol.for('cosi.controller.requeue');

/**
 * RequeueError asks a QController runtime to reconcile the item again after `interval` ms.
 * With a cause it is also a failure (logged and counted as a crash); without one it is a plain
 * "check again later".
 */
export class RequeueError extends Error {
  readonly [REQUEUE] = true;

  constructor(
    /** milliseconds until the item is reconciled again */
    readonly interval: number,
    cause?: unknown,
  ) {
    super(
      cause === undefined
        ? `requeue in ${interval}ms`
        : cause instanceof Error
          ? cause.message
          : String(cause),
      cause === undefined ? undefined : { cause },
    );
    this.name = 'RequeueError';
  }
}

/** requeueAfter is a requeue without an error. */
export const requeueAfter = (interval: number): RequeueError => new RequeueError(interval);

/** asRequeue finds a RequeueError anywhere in the cause chain. */
export const asRequeue = (e: unknown): RequeueError | undefined =>
  findInChain(e, (x) => ((x as Record<symbol, unknown>)[REQUEUE] ? (x as RequeueError) : undefined));

const SKIP = Symbol.for('cosi.controller.skip-reconcile');

/**
 * SkipReconcileError means "nothing to do until the next event": generic controllers and the
 * QController runtime treat it as success (counted as a skip), never as a failure.
 */
export class SkipReconcileError extends Error {
  readonly [SKIP] = true;

  constructor(message = 'reconcile skipped', opts?: ErrorOptions) {
    super(message, opts);
    this.name = 'SkipReconcileError';
  }
}

export const skipReconcile = (message?: string): SkipReconcileError => new SkipReconcileError(message);

export const isSkipReconcile = (e: unknown): boolean =>
  findInChain(e, (x) => ((x as Record<symbol, unknown>)[SKIP] ? true : undefined)) === true;

/** isAbort recognizes the rejection of an aborted signal (DOMException or Error named AbortError). */
export const isAbort = (e: unknown): boolean =>
  findInChain(e, (x) => ((x as { name?: unknown }).name === 'AbortError' ? true : undefined)) === true;
