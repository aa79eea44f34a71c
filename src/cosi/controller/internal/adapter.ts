// State adapter: a controller's only door to the state. It enforces declared access, rate-limits
// writes, stamps the owner, serves cached kinds from the cache and reports written outputs.
import type { ID, Kind, Namespace, Pointer, Type } from '../../resource/kind.js';
import { pointerString } from '../../resource/kind.js';
import type { Resource } from '../../resource/resource.js';
import type { ResourceType, TypedResource } from '../../resource/typed.js';
import type { SignalOptions as StateSignalOptions } from '../../state/core.js';
import { isNotFound } from '../../state/errors.js';
import { ownedState } from '../../state/owned.js';
import type { State } from '../../state/state.js';
import type { Input, Output } from '../controller.js';
import { ControllerError } from '../errors.js';
import type {
  ListOptions,
  ModifyFn,
  ModifyOptions,
  ReaderWriter,
  ReadOptions,
  SignalOptions,
} from '../reader-writer.js';
import type { ResourceCache } from './cache.js';
import type { MetricsRegistry } from './metrics.js';
import type { RateLimiter } from './rate-limit.js';

export interface AdapterOptions {
  readonly name: string;
  readonly state: State;
  readonly metrics: MetricsRegistry;
  readonly cache: ResourceCache;
  readonly limiter: RateLimiter;
  /** the default signal of every operation: the runtime's run signal */
  readonly signal: () => AbortSignal;
  /** the current inputs (they change with updateInputs) */
  readonly inputs: () => readonly Input[];
  readonly outputs: readonly Output[];
  /** onWrite sees every output the controller creates, updates or modifies, even when the write fails */
  readonly onWrite?: (ptr: Pointer) => void;
}

/** StateAdapter is the typed ReaderWriter plus the untyped reads the runtime itself needs. */
export interface StateAdapter extends ReaderWriter {
  listKind(kind: Kind, opts?: SignalOptions): Promise<Resource[]>;
}

const q = (s: string): string => JSON.stringify(s);
const FINALIZER_KINDS: ReadonlySet<Input['kind']> = new Set(['strong', 'q-primary', 'q-mapped']);

export function stateAdapter(o: AdapterOptions): StateAdapter {
  const st = o.state;
  const owned = ownedState(st, o.name);
  // every call of the controller-facing API counts once, cached or not, however many state ops it takes
  const read = () => o.metrics.add('controller_reads', o.name, 1);
  const wrote = () => o.metrics.add('controller_writes', o.name, 1);
  const denied = (msg: string) => new ControllerError('access-denied', msg);
  const signalOf = (opts?: SignalOptions): AbortSignal => opts?.signal ?? o.signal();
  const isOutput = (type: Type) => o.outputs.some((out) => out.type === type);

  const checkRead = (ns: Namespace, type: Type, id?: ID) => {
    if (isOutput(type)) return;
    for (const i of o.inputs()) {
      if (i.namespace !== ns || i.type !== type) continue;
      if (i.id === undefined || (id !== undefined && i.id === id)) return; // an id-narrowed input allows only get of that id
    }
    throw denied(
      `attempt to query resource ${q(ns)}/${q(type)}, not input or output for controller ${q(o.name)}`,
    );
  };
  const checkWrite = (p: Pointer, verb: string) => {
    if (!isOutput(p.type))
      throw denied(
        `resource ${q(p.namespace)}/${q(p.type)} is not an output for controller ${q(o.name)}, ${verb} attempted on ${q(p.id)}`,
      );
  };
  const checkFinalizers = (p: Pointer) => {
    const ok = o
      .inputs()
      .some(
        (i) =>
          FINALIZER_KINDS.has(i.kind) &&
          i.namespace === p.namespace &&
          i.type === p.type &&
          (i.id === undefined || i.id === p.id),
      );
    if (!ok)
      throw denied(
        `attempt to change finalizers for resource ${q(p.namespace)}/${q(p.type)}, not an input with Strong dependency for controller ${q(o.name)}`,
      );
  };
  const typed = <S>(type: ResourceType<S>, r: Resource): TypedResource<S> => {
    if (type.is(r)) return r;
    throw new ControllerError(
      'type-mismatch',
      `resource ${pointerString(r.metadata)} is not a typed ${type.type} resource (controller ${q(o.name)})`,
    );
  };
  const sig = (signal: AbortSignal): StateSignalOptions => ({ signal });

  const getAny = async (p: Pointer, signal: AbortSignal, cached: boolean): Promise<Resource> => {
    read();
    return cached && o.cache.handles(p.namespace, p.type) ? o.cache.get(p, signal) : st.get(p, sig(signal));
  };
  const listAny = async (k: Kind, opts: ListOptions, signal: AbortSignal, cached: boolean) => {
    read();
    const filters = {
      ...(opts.labelQueries ? { labelQueries: opts.labelQueries } : {}),
      ...(opts.idQuery ? { idQuery: opts.idQuery } : {}),
    };
    return cached && o.cache.handles(k.namespace, k.type)
      ? o.cache.list(k, filters, signal)
      : st.list(k, { ...filters, signal });
  };

  const reads = (cached: boolean) => {
    const get = async <S>(type: ResourceType<S>, id: ID, opts: ReadOptions = {}) => {
      const p = { namespace: opts.namespace ?? type.defaultNamespace, type: type.type, id };
      checkRead(p.namespace, p.type, id);
      return typed(type, await getAny(p, signalOf(opts), cached));
    };
    const getOrNull = async <S>(type: ResourceType<S>, id: ID, opts?: ReadOptions) => {
      try {
        return await get(type, id, opts);
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    };
    const list = async <S>(type: ResourceType<S>, opts: ListOptions = {}) => {
      const k = { namespace: opts.namespace ?? type.defaultNamespace, type: type.type };
      checkRead(k.namespace, k.type);
      return (await listAny(k, opts, signalOf(opts), cached)).map((r) => typed(type, r));
    };
    return { get, getOrNull, list };
  };

  // writes: check rights first (no token spent on a denied call), then wait for a token
  const write = async <T>(
    p: Pointer,
    verb: string,
    opts: SignalOptions | undefined,
    op: (s: AbortSignal) => Promise<T>,
  ) => {
    checkWrite(p, verb);
    const signal = signalOf(opts);
    await o.limiter.wait(signal);
    wrote();
    return op(signal);
  };
  const finalizers = async (
    p: Pointer,
    opts: SignalOptions | undefined,
    op: (s: AbortSignal) => Promise<void>,
  ) => {
    checkFinalizers(p);
    const signal = signalOf(opts);
    await o.limiter.wait(signal);
    wrote();
    return op(signal);
  };
  const modify = <S>(type: ResourceType<S>, id: ID, fn: ModifyFn<S>, opts: ModifyOptions = {}) => {
    const p = { namespace: opts.namespace ?? type.defaultNamespace, type: type.type, id };
    o.onWrite?.(p);
    return write(p, 'update', opts, async (signal) =>
      typed(
        type,
        await owned.modifyWithResult<Resource>(
          type.new(p.namespace, id),
          async (r) => {
            const t = typed(type, r);
            const replaced = await fn(t.spec, t.metadata, t);
            if (replaced !== undefined) t.spec = replaced;
          },
          {
            signal,
            ...(opts.expectedPhase ? { expectedPhase: opts.expectedPhase } : {}),
            ...(opts.noOwner ? { noOwner: true } : {}),
          },
        ),
      ),
    );
  };

  const cachedReads = reads(true);
  const uncachedReads = reads(false);
  return {
    ...cachedReads,
    getUncached: uncachedReads.get,
    getOrNullUncached: uncachedReads.getOrNull,
    listUncached: uncachedReads.list,
    async teardownScope(ptr, opts) {
      checkRead(ptr.namespace, ptr.type, ptr.id);
      read();
      return st.teardownScope(ptr, sig(signalOf(opts)));
    },
    listKind(kind, opts) {
      return listAny(kind, {}, signalOf(opts), true);
    },
    create(r, opts = {}) {
      o.onWrite?.(r.metadata);
      return write(r.metadata, 'create', opts, (signal) =>
        owned.create(r, { signal, ...(opts.noOwner ? { noOwner: true } : {}) }),
      );
    },
    update(r, opts) {
      o.onWrite?.(r.metadata);
      return write(r.metadata, 'update', opts, (signal) => owned.update(r, { signal }));
    },
    async modify(type, id, fn, opts) {
      await modify(type, id, fn, opts);
    },
    modifyWithResult: modify,
    teardown(ptr, opts = {}) {
      return write(ptr, 'teardown', opts, (signal) =>
        owned.teardown(ptr, { signal, ...(opts.owner !== undefined ? { owner: opts.owner } : {}) }),
      );
    },
    destroy(ptr, opts = {}) {
      return write(ptr, 'destroy', opts, (signal) =>
        owned.destroy(ptr, { signal, ...(opts.owner !== undefined ? { owner: opts.owner } : {}) }),
      );
    },
    addFinalizer(ptr, fins, opts) {
      return finalizers(ptr, opts, (signal) => owned.addFinalizer(ptr, fins, { signal }));
    },
    removeFinalizer(ptr, fins, opts) {
      return finalizers(ptr, opts, async (signal) => {
        try {
          await owned.removeFinalizer(ptr, fins, { signal });
        } catch (e) {
          if (!isNotFound(e)) throw e; // already gone: nothing left to finalize
        }
      });
    },
  };
}
