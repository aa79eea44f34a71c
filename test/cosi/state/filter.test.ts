import { describe, expect, it } from 'vitest';
import { defineResource } from '../../../src/cosi/resource/typed.js';
import type { CoreState } from '../../../src/cosi/state/core.js';
import { isConflict, StateError, stateErrorCode } from '../../../src/cosi/state/errors.js';
import type { WatchStream } from '../../../src/cosi/state/events.js';
import {
  type Access,
  filter,
  isReadonlyVerb,
  readOnlyRule,
  type Verb,
} from '../../../src/cosi/state/filter.js';

const Thing = defineResource<{ n: number }>({
  type: 'FilterThings.test.cosi.dev',
  defaultNamespace: 'default',
  empty: () => ({ n: 0 }),
});

const emptyStream = <E>(): WatchStream<E> => ({
  close() {},
  async *[Symbol.asyncIterator]() {},
});

/** recordingCore logs each call it receives; the filter test only cares about what gets through. */
function recordingCore(withTeardown: boolean): { core: CoreState; calls: string[] } {
  const calls: string[] = [];
  const core: CoreState = {
    async get(ptr) {
      calls.push(`get ${ptr.id}`);
      return Thing.new(ptr.namespace, ptr.id);
    },
    async list(kind) {
      calls.push(`list ${kind.type}`);
      return [];
    },
    async create(r) {
      calls.push(`create ${r.metadata.id}`);
    },
    async update(r) {
      calls.push(`update ${r.metadata.id}`);
    },
    async destroy(ptr) {
      calls.push(`destroy ${ptr.id}`);
    },
    async watch(ptr) {
      calls.push(`watch ${ptr.id}`);
      return emptyStream();
    },
    async watchKind(kind) {
      calls.push(`watchKind ${kind.type}`);
      return emptyStream();
    },
    async watchKindAggregated(kind) {
      calls.push(`watchKindAggregated ${kind.type}`);
      return emptyStream();
    },
  };
  if (withTeardown) {
    core.teardown = async (ptr) => {
      calls.push(`teardown ${ptr.id}`);
      return true;
    };
    core.teardownAndDestroy = async (ptr) => {
      calls.push(`teardownAndDestroy ${ptr.id}`);
    };
  }
  return { core, calls };
}

const ptr = Thing.pointer('a');
const kind = { namespace: 'default', type: Thing.type };
const access = (verb: Verb, id = 'a'): Access => ({ namespace: 'default', type: Thing.type, id, verb });

describe('filter', () => {
  it('asks the rule before every verb, with the namespace, type, id and verb', async () => {
    const { core, calls } = recordingCore(false);
    const seen: Access[] = [];
    const f = filter(core, (a) => {
      seen.push(a);
      calls.push(`rule ${a.verb}`);
    });
    await f.get(ptr);
    await f.list(kind);
    await f.watch(ptr);
    await f.watchKind(kind);
    await f.watchKindAggregated(kind);
    await f.create(Thing.new('default', 'a'));
    await f.update(Thing.new('default', 'a'));
    await f.destroy(ptr);
    expect(seen).toEqual([
      access('get'),
      access('list', ''),
      access('watch'),
      access('watch', ''),
      access('watch', ''),
      access('create'),
      access('update'),
      access('destroy'),
    ]);
    expect(calls).toEqual([
      'rule get',
      'get a',
      'rule list',
      `list ${Thing.type}`,
      'rule watch',
      'watch a',
      'rule watch',
      `watchKind ${Thing.type}`,
      'rule watch',
      `watchKindAggregated ${Thing.type}`,
      'rule create',
      'create a',
      'rule update',
      'update a',
      'rule destroy',
      'destroy a',
    ]);
  });

  it('passes the denying error through unchanged and never reaches the core', async () => {
    const { core, calls } = recordingCore(true);
    const denied = new Error('no');
    const f = filter(core, () => {
      throw denied;
    });
    const attempts: Promise<unknown>[] = [
      f.get(ptr),
      f.list(kind),
      f.watch(ptr),
      f.watchKind(kind),
      f.watchKindAggregated(kind),
      f.create(Thing.new('default', 'a')),
      f.update(Thing.new('default', 'a')),
      f.destroy(ptr),
      f.teardown!(ptr),
      f.teardownAndDestroy!(ptr),
    ];
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes).toEqual(attempts.map(() => ({ status: 'rejected', reason: denied })));
    for (const o of outcomes) expect((o as PromiseRejectedResult).reason).toBe(denied);
    expect(calls).toEqual([]);
  });

  it('awaits an async rule and hands it the caller signal', async () => {
    const { core, calls } = recordingCore(false);
    const ac = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    const f = filter(core, async (a, { signal }) => {
      signals.push(signal);
      await Promise.resolve();
      if (a.verb === 'destroy') throw new StateError('unsupported', 'nope');
    });
    await f.get(ptr, { signal: ac.signal });
    await expect(f.destroy(ptr, { signal: ac.signal })).rejects.toMatchObject({ code: 'unsupported' });
    await f.list(kind);
    expect(signals).toEqual([ac.signal, ac.signal, undefined]);
    expect(calls).toEqual(['get a', `list ${Thing.type}`]);
  });

  it('leaves teardown out when the core has none, so the wrapper derives it through the filter', () => {
    const { core } = recordingCore(false);
    const f = filter(core, () => {});
    expect(f.teardown).toBeUndefined();
    expect(f.teardownAndDestroy).toBeUndefined();
  });

  it('checks native teardown as update, and teardown-and-destroy as update then destroy', async () => {
    const { core, calls } = recordingCore(true);
    const f = filter(core, (a) => {
      calls.push(`rule ${a.verb}`);
    });
    await expect(f.teardown!(ptr)).resolves.toBe(true);
    await f.teardownAndDestroy!(ptr);
    expect(calls).toEqual([
      'rule update',
      'teardown a',
      'rule update',
      'rule destroy',
      'teardownAndDestroy a',
    ]);
  });

  it('denies teardown-and-destroy when only destroy is refused', async () => {
    const { core, calls } = recordingCore(true);
    const f = filter(core, (a) => {
      if (a.verb === 'destroy') throw new Error('destroy denied');
    });
    await expect(f.teardownAndDestroy!(ptr)).rejects.toThrow('destroy denied');
    await expect(f.teardown!(ptr)).resolves.toBe(true);
    expect(calls).toEqual(['teardown a']);
  });
});

describe('isReadonlyVerb', () => {
  it('is true only for get, list and watch', () => {
    const verbs: Verb[] = ['get', 'list', 'watch', 'create', 'update', 'destroy'];
    expect(verbs.filter(isReadonlyVerb)).toEqual(['get', 'list', 'watch']);
  });
});

describe('readOnlyRule', () => {
  it('lets reads through and refuses writes with an unsupported StateError naming the resource', async () => {
    const { core, calls } = recordingCore(true);
    const f = filter(core, readOnlyRule);
    await f.get(ptr);
    await f.list(kind);
    await f.watch(ptr);
    await f.watchKind(kind);
    await f.watchKindAggregated(kind);
    const writes: Promise<unknown>[] = [
      f.create(Thing.new('default', 'a')),
      f.update(Thing.new('default', 'a')),
      f.destroy(ptr),
      f.teardown!(ptr),
      f.teardownAndDestroy!(ptr),
    ];
    for (const o of await Promise.allSettled(writes)) {
      expect(o.status).toBe('rejected');
      const e = (o as PromiseRejectedResult).reason;
      expect(e).toBeInstanceOf(StateError);
      expect(stateErrorCode(e)).toBe('unsupported');
      expect(isConflict(e)).toBe(false);
      expect((e as StateError).ref).toEqual(ptr);
    }
    await expect(f.create(Thing.new('default', 'a'))).rejects.toThrow(
      `state is read-only: create of ${Thing.type}(default/a) denied`,
    );
    expect(calls).toEqual([
      'get a',
      `list ${Thing.type}`,
      'watch a',
      `watchKind ${Thing.type}`,
      `watchKindAggregated ${Thing.type}`,
    ]);
  });
});
