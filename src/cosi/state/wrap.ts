// wrapCore: derives the State operations (conflict retries, modify, teardown, finalizers, waits) from any CoreState.
import { type Pointer, pointerString } from '../resource/kind.js';
import { equal, type Resource } from '../resource/resource.js';
import type { CoreState, SignalOptions, TeardownOptions, UpdateOptions } from './core.js';
import {
  errPhaseConflict,
  isConflict,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
  stateErrorCode,
} from './errors.js';
import type { StateEvent } from './events.js';
import type { ModifyOptions, State, TeardownScope, UpdateFn, WatchForOptions } from './state.js';

/** wrapCore gives any backend the full State API; native teardown ops of the core win when present. */
export function wrapCore(core: CoreState): State {
  async function updateWithConflicts<R extends Resource>(
    ptr: Pointer,
    fn: UpdateFn<R>,
    opts: UpdateOptions = {},
  ): Promise<R> {
    const expected = opts.expectedPhase ?? 'running';
    for (;;) {
      opts.signal?.throwIfAborted();
      const cur = (await core.get(ptr, { signal: opts.signal })) as R;
      // a phase mismatch fails even when fn turns out to change nothing
      if (expected !== 'any' && cur.metadata.phase !== expected)
        throw errPhaseConflict(cur.metadata, expected);
      const next = cur.deepCopy() as R;
      await fn(next);
      // writing an equal resource would bump the version and wake every watcher for nothing
      if (equal(cur, next)) return cur;
      try {
        await core.update(next, opts);
        return next;
      } catch (e) {
        // only a moved version is worth retrying; owner and phase conflicts will not go away
        if (isConflict(e) && !isOwnerConflict(e) && !isPhaseConflict(e)) continue;
        throw e;
      }
    }
  }

  async function modifyWithResult<R extends Resource>(
    empty: R,
    fn: UpdateFn<R>,
    opts: ModifyOptions = {},
  ): Promise<R> {
    try {
      await core.get(empty.metadata, { signal: opts.signal });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await fn(empty);
      try {
        await core.create(empty, { owner: opts.owner, signal: opts.signal });
        return empty;
      } catch (ce) {
        // lost a create race: fall through and update what the winner created
        if (stateErrorCode(ce) !== 'already-exists') throw ce;
      }
    }
    return updateWithConflicts(empty.metadata, fn, opts);
  }

  async function teardown(ptr: Pointer, opts: TeardownOptions = {}): Promise<boolean> {
    if (core.teardown) return core.teardown(ptr, opts);
    const cur = await core.get(ptr, { signal: opts.signal });
    if (cur.metadata.phase === 'tearingDown') return cur.metadata.finalizers.empty();
    // 'any': a concurrent teardown makes this a no-op instead of a phase conflict
    const r = await updateWithConflicts(
      ptr,
      (r) => {
        r.metadata.phase = 'tearingDown';
      },
      { owner: opts.owner ?? '', expectedPhase: 'any', signal: opts.signal },
    );
    return r.metadata.finalizers.empty();
  }

  /** untilDestroyReady resolves true when someone else destroyed the resource, false when finalizers cleared. */
  async function untilDestroyReady(ptr: Pointer, signal?: AbortSignal): Promise<boolean> {
    const stream = await core.watch(ptr, { signal });
    try {
      for await (const ev of stream) {
        if (ev.type === 'errored') throw ev.error;
        if (ev.type === 'destroyed') return true;
        if ((ev.type === 'created' || ev.type === 'updated') && ev.resource.metadata.finalizers.empty())
          return false;
      }
    } finally {
      stream.close();
    }
    throw ended(signal, ptr);
  }

  async function teardownAndDestroy(ptr: Pointer, opts: TeardownOptions = {}): Promise<void> {
    if (core.teardownAndDestroy) return core.teardownAndDestroy(ptr, opts);
    for (let attempt = 0; ; attempt++) {
      let ready: boolean;
      try {
        ready = await teardown(ptr, opts);
      } catch (e) {
        if (attempt > 0 && isNotFound(e)) return; // destroyed by someone else between attempts
        throw e;
      }
      if (!ready && (await untilDestroyReady(ptr, opts.signal))) return;
      try {
        await core.destroy(ptr, { owner: opts.owner, signal: opts.signal });
        return;
      } catch (e) {
        if (isNotFound(e)) return; // the race of two destroyers: the other one won
        const code = stateErrorCode(e);
        if (code === 'pending-finalizers' || code === 'conflict') continue; // a finalizer came back
        throw e;
      }
    }
  }

  async function editFinalizers(
    ptr: Pointer,
    fins: string | readonly string[],
    edit: 'add' | 'remove',
    opts: SignalOptions = {},
  ): Promise<void> {
    const list = typeof fins === 'string' ? [fins] : fins;
    // finalizers are anyone's to change: act as the current owner, in any phase
    const cur = await core.get(ptr, { signal: opts.signal });
    await updateWithConflicts(
      ptr,
      (r) => {
        for (const f of list) r.metadata.finalizers[edit](f);
      },
      { owner: cur.metadata.owner, expectedPhase: 'any', signal: opts.signal },
    );
  }

  async function watchFor(ptr: Pointer, opts: WatchForOptions): Promise<Resource> {
    const stream = await core.watch(ptr, { signal: opts.signal });
    try {
      for await (const ev of stream) {
        if (ev.type === 'errored') throw ev.error;
        if (await matches(ev, opts)) return (ev as { resource: Resource }).resource.deepCopy();
      }
    } finally {
      stream.close();
    }
    throw ended(opts.signal, ptr);
  }

  async function teardownScope(ptr: Pointer, opts: SignalOptions = {}): Promise<TeardownScope> {
    const ctrl = new AbortController();
    const parent = opts.signal;
    parent?.throwIfAborted();
    const onParent = (): void => ctrl.abort(parent?.reason);
    parent?.addEventListener('abort', onParent, { once: true });
    ctrl.signal.addEventListener('abort', () => parent?.removeEventListener('abort', onParent), {
      once: true,
    });
    let stream: Awaited<ReturnType<CoreState['watch']>>;
    try {
      stream = await core.watch(ptr, { signal: ctrl.signal });
    } catch (e) {
      ctrl.abort(e);
      throw e;
    }
    void (async () => {
      try {
        for await (const ev of stream) {
          if (ev.type === 'errored') return ctrl.abort(ev.error);
          if (ev.type === 'destroyed')
            return ctrl.abort(new Error(`resource ${pointerString(ptr)} is destroyed`));
          if (
            (ev.type === 'created' || ev.type === 'updated') &&
            ev.resource.metadata.phase === 'tearingDown'
          )
            return ctrl.abort(new Error(`resource ${pointerString(ptr)} is tearing down`));
        }
      } catch (e) {
        ctrl.abort(e);
      } finally {
        stream.close();
      }
    })();
    return { signal: ctrl.signal, close: () => ctrl.abort() };
  }

  return {
    get: (ptr, opts) => core.get(ptr, opts),
    list: (kind, opts) => core.list(kind, opts),
    create: (r, opts) => core.create(r, opts),
    update: (r, opts) => core.update(r, opts),
    destroy: (ptr, opts) => core.destroy(ptr, opts),
    watch: (ptr, opts) => core.watch(ptr, opts),
    watchKind: (kind, opts) => core.watchKind(kind, opts),
    watchKindAggregated: (kind, opts) => core.watchKindAggregated(kind, opts),
    updateWithConflicts,
    modify: async (empty, fn, opts) => {
      await modifyWithResult(empty, fn, opts);
    },
    modifyWithResult,
    teardown,
    teardownAndDestroy,
    addFinalizer: (ptr, fins, opts) => editFinalizers(ptr, fins, 'add', opts),
    removeFinalizer: (ptr, fins, opts) => editFinalizers(ptr, fins, 'remove', opts),
    watchFor,
    teardownScope,
  };
}

/** matches applies every WatchFor condition given; a destroyed event never has empty finalizers. */
async function matches(ev: StateEvent, c: WatchForOptions): Promise<boolean> {
  if (ev.type !== 'created' && ev.type !== 'updated' && ev.type !== 'destroyed') return false;
  if (c.eventTypes && !c.eventTypes.includes(ev.type)) return false;
  const md = ev.resource.metadata;
  if (c.phases && !c.phases.includes(md.phase)) return false;
  if (c.finalizersEmpty && (ev.type === 'destroyed' || !md.finalizers.empty())) return false;
  if (c.condition && !(await c.condition(ev.resource))) return false;
  return true;
}

/** ended explains a watch that stopped before its condition held. */
const ended = (signal: AbortSignal | undefined, ptr: Pointer): unknown =>
  signal?.aborted ? signal.reason : new Error(`watch of ${pointerString(ptr)} ended`);
