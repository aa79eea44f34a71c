// Filter: one access rule in front of every CoreState verb; the authorization hook of the API layers.
import {
  type ID,
  type Kind,
  type Namespace,
  type Pointer,
  pointerString,
  type Type,
} from '../resource/kind.js';
import type { CoreState, SignalOptions } from './core.js';
import { StateError } from './errors.js';

/** Verb is what an access does; teardowns count as update (and destroy), as when derived from them. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'destroy';

/** isReadonlyVerb is true for the verbs that never change stored data. */
export const isReadonlyVerb = (verb: Verb): boolean => verb === 'get' || verb === 'list' || verb === 'watch';

/** Access describes one state access; `id` is empty for kind-wide verbs (list, watchKind). */
export interface Access {
  readonly namespace: Namespace;
  readonly type: Type;
  readonly id: ID;
  readonly verb: Verb;
}

/** FilterRule allows an access by returning and denies it by throwing; the error reaches the caller as is. */
export type FilterRule = (access: Access, opts: SignalOptions) => void | Promise<void>;

const at = (p: Kind & { readonly id?: ID }, verb: Verb): Access => ({
  namespace: p.namespace,
  type: p.type,
  id: p.id ?? '',
  verb,
});

/** filter runs `rule` before each verb of `core` and returns the same shape. */
export function filter(core: CoreState, rule: FilterRule): CoreState {
  const check = async (p: Kind & { readonly id?: ID }, verb: Verb, opts: SignalOptions | undefined) => {
    await rule(at(p, verb), { signal: opts?.signal });
  };
  const filtered: CoreState = {
    async get(ptr, opts) {
      await check(ptr, 'get', opts);
      return core.get(ptr, opts);
    },
    async list(kind, opts) {
      await check({ namespace: kind.namespace, type: kind.type }, 'list', opts);
      return core.list(kind, opts);
    },
    async create(r, opts) {
      await check(r.metadata, 'create', opts);
      return core.create(r, opts);
    },
    async update(r, opts) {
      await check(r.metadata, 'update', opts);
      return core.update(r, opts);
    },
    async destroy(ptr, opts) {
      await check(ptr, 'destroy', opts);
      return core.destroy(ptr, opts);
    },
    async watch(ptr, opts) {
      await check(ptr, 'watch', opts);
      return core.watch(ptr, opts);
    },
    async watchKind(kind, opts) {
      await check({ namespace: kind.namespace, type: kind.type }, 'watch', opts);
      return core.watchKind(kind, opts);
    },
    async watchKindAggregated(kind, opts) {
      await check({ namespace: kind.namespace, type: kind.type }, 'watch', opts);
      return core.watchKindAggregated(kind, opts);
    },
  };
  // Native teardowns are exposed only when the core has them, so a wrapper still derives them otherwise.
  const { teardown, teardownAndDestroy } = core;
  if (teardown) {
    filtered.teardown = async (ptr, opts) => {
      await check(ptr, 'update', opts);
      return teardown.call(core, ptr, opts);
    };
  }
  if (teardownAndDestroy) {
    // Derived, it would be an update followed by a destroy; both must be allowed.
    filtered.teardownAndDestroy = async (ptr, opts) => {
      await check(ptr, 'update', opts);
      await check(ptr, 'destroy', opts);
      return teardownAndDestroy.call(core, ptr, opts);
    };
  }
  return filtered;
}

/** readOnlyRule denies every verb that could change data, with an `unsupported` StateError. */
export const readOnlyRule: FilterRule = ({ namespace, type, id, verb }) => {
  if (isReadonlyVerb(verb)) return;
  const ptr: Pointer = { namespace, type, id };
  throw new StateError('unsupported', `state is read-only: ${verb} of ${pointerString(ptr)} denied`, ptr);
};
