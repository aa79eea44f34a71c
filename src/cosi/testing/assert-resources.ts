// Eventually-consistent assertions: re-check resources on every watch event until they pass or time runs out.
import type { ID, Kind, Pointer } from '../resource/kind.js';
import { pointerString } from '../resource/kind.js';
import type { Resource } from '../resource/resource.js';
import type { ResourceType, TypedResource } from '../resource/typed.js';
import type { CoreState } from '../state/core.js';
import type { StateEvent, WatchStream } from '../state/events.js';

export interface AssertOptions {
  signal?: AbortSignal;
  /** how long to keep re-checking before reporting the last failure; default 10 s */
  timeoutMs?: number;
  /** namespace for a resource type given without one; default the type's default namespace */
  namespace?: string;
}

export type Check<R> = (r: R) => unknown;

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * assertResource resolves with the resource once `check` (which throws or uses expect) passes.
 * It re-runs the check on each change; on timeout it throws the check's last failure.
 */
export function assertResource<S>(
  st: CoreState,
  type: ResourceType<S>,
  id: ID,
  check: Check<TypedResource<S>>,
  opts?: AssertOptions,
): Promise<TypedResource<S>>;
export function assertResource(
  st: CoreState,
  ptr: Pointer,
  check: Check<Resource>,
  opts?: AssertOptions,
): Promise<Resource>;
export function assertResource(
  st: CoreState,
  target: Pointer | ResourceType<unknown>,
  ...rest: unknown[]
): Promise<Resource> {
  const typed = isType(target);
  const ptr = typed ? pointerOf(target, rest[0] as ID, rest[2] as AssertOptions | undefined) : target;
  const check = (typed ? rest[1] : rest[0]) as Check<Resource>;
  const opts = (typed ? rest[2] : rest[1]) as AssertOptions | undefined;
  return assertResourcesAt(st, ptr, [ptr.id], check, opts).then((found) => found.get(ptr.id)!);
}

/** assertResources checks every id of a kind the same way; it resolves with them by id. */
export function assertResources<S>(
  st: CoreState,
  type: ResourceType<S>,
  ids: readonly ID[],
  check: Check<TypedResource<S>>,
  opts?: AssertOptions,
): Promise<Map<ID, TypedResource<S>>>;
export function assertResources(
  st: CoreState,
  kind: Kind,
  ids: readonly ID[],
  check: Check<Resource>,
  opts?: AssertOptions,
): Promise<Map<ID, Resource>>;
export function assertResources(
  st: CoreState,
  target: Kind | ResourceType<unknown>,
  ids: readonly ID[],
  check: Check<never>,
  opts?: AssertOptions,
): Promise<Map<ID, Resource>> {
  const kind = isType(target) ? pointerOf(target, '', opts) : target;
  return assertResourcesAt(st, kind, ids, check as Check<Resource>, opts);
}

/** assertNoResource resolves once the resource does not exist. */
export function assertNoResource(
  st: CoreState,
  target: Pointer | ResourceType<unknown>,
  idOrOpts?: ID | AssertOptions,
  maybeOpts?: AssertOptions,
): Promise<void> {
  const typed = isType(target);
  const opts = typed ? maybeOpts : (idOrOpts as AssertOptions | undefined);
  const ptr = typed ? pointerOf(target, idOrOpts as ID, opts) : target;
  return eventually(
    (signal) => st.watch(ptr, { signal }),
    opts,
    (ev) => {
      if (ev.type !== 'destroyed') throw new Error(`resource ${pointerString(ptr)} still exists`);
    },
  );
}

/** assertLength resolves once the kind holds exactly n resources. */
export function assertLength(
  st: CoreState,
  target: Kind | ResourceType<unknown>,
  n: number,
  opts?: AssertOptions,
): Promise<void> {
  const kind = isType(target) ? pointerOf(target, '', opts) : target;
  const present = new Set<ID>();
  let bootstrapped = false;
  return eventually(
    (signal) => st.watchKind(kind, { signal, bootstrapContents: true }),
    opts,
    (ev) => {
      if (ev.type === 'created' || ev.type === 'updated') present.add(ev.resource.metadata.id);
      else if (ev.type === 'destroyed') present.delete(ev.resource.metadata.id);
      else if (ev.type === 'bootstrapped') bootstrapped = true;
      if (!bootstrapped)
        throw new Error(`${kind.type}(${kind.namespace}): still reading the current contents`);
      if (present.size !== n)
        throw new Error(`${kind.type}(${kind.namespace}): expected ${n} resources, found ${present.size}`);
    },
  );
}

function assertResourcesAt(
  st: CoreState,
  kind: Kind,
  ids: readonly ID[],
  check: Check<Resource>,
  opts: AssertOptions | undefined,
): Promise<Map<ID, Resource>> {
  const wanted = new Set(ids);
  const found = new Map<ID, Resource>();
  const failures = new Map<ID, unknown>(
    ids.map((id) => [id, new Error(`resource ${pointerString({ ...kind, id })} doesn't exist`)]),
  );
  const recheck = async (r: Resource): Promise<void> => {
    const id = r.metadata.id;
    try {
      const copy = r.deepCopy(); // events are shared snapshots; checks may poke at them
      await check(copy);
      found.set(id, copy);
      failures.delete(id);
    } catch (e) {
      found.delete(id);
      failures.set(id, e);
    }
  };
  return eventually(
    (signal) => st.watchKind(kind, { signal, bootstrapContents: true }),
    opts,
    async (ev) => {
      if ((ev.type === 'created' || ev.type === 'updated') && wanted.has(ev.resource.metadata.id))
        await recheck(ev.resource);
      else if (ev.type === 'destroyed' && wanted.has(ev.resource.metadata.id)) {
        const id = ev.resource.metadata.id;
        found.delete(id);
        failures.set(id, new Error(`resource ${pointerString({ ...kind, id })} doesn't exist`));
      }
      // every id passing is enough, even before the bootstrap has finished
      const first = failures.values().next();
      if (!first.done) throw first.value;
    },
  ).then(() => found);
}

/**
 * eventually feeds watch events to `step` until one call returns without throwing. On timeout or
 * abort it throws the last failure, so the report shows why the state never converged.
 */
async function eventually(
  open: (signal: AbortSignal) => Promise<WatchStream<StateEvent>>,
  opts: AssertOptions | undefined,
  step: (ev: StateEvent) => unknown,
): Promise<void> {
  const ctrl = new AbortController();
  const timeoutMs = opts?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => ctrl.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const parent = opts?.signal;
  const onParent = (): void => ctrl.abort(parent?.reason);
  parent?.addEventListener('abort', onParent, { once: true });
  let last: unknown = new Error('no event arrived');
  try {
    if (parent?.aborted) throw parent.reason;
    const stream = await open(ctrl.signal);
    try {
      for await (const ev of stream) {
        if (ev.type === 'errored') throw ev.error;
        try {
          await step(ev);
          return;
        } catch (e) {
          last = e;
        }
      }
    } finally {
      stream.close();
    }
    throw last;
  } finally {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParent);
  }
}

const isType = (t: object): t is ResourceType<unknown> => 'codec' in t && 'definition' in t;

const pointerOf = (t: ResourceType<unknown>, id: ID, opts: AssertOptions | undefined): Pointer =>
  t.pointer(id, opts?.namespace ?? t.defaultNamespace);
