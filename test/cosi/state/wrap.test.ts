import { describe, expect, it } from 'vitest';
import type { CoreState } from '../../../src/cosi/state/core.js';
import {
  errOwnerConflict,
  errPhaseConflict,
  errVersionConflict,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
} from '../../../src/cosi/state/errors.js';
import type { StateEvent, WatchStream } from '../../../src/cosi/state/events.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { IntResource, newInt } from '../../../src/cosi/testing/resources.js';

const NS = 'wrap';

/** delegate forwards every verb to `inner`, except the ones overridden. */
const delegate = (inner: CoreState, over: Partial<CoreState> = {}): CoreState => ({
  get: (p, o) => inner.get(p, o),
  list: (k, o) => inner.list(k, o),
  create: (r, o) => inner.create(r, o),
  update: (r, o) => inner.update(r, o),
  destroy: (p, o) => inner.destroy(p, o),
  watch: (p, o) => inner.watch(p, o),
  watchKind: (k, o) => inner.watchKind(k, o),
  watchKindAggregated: (k, o) => inner.watchKindAggregated(k, o),
  ...over,
});

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

describe('updateWithConflicts', () => {
  it('retries version conflicts and returns the updated resource', async () => {
    const inner = newInmemState();
    let conflicts = 1;
    const st = wrapCore(
      delegate(inner, {
        update: async (r, o) => {
          if (conflicts-- > 0) throw errVersionConflict(r.metadata, '1', '2');
          return inner.update(r, o);
        },
      }),
    );
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    let calls = 0;
    const got = await st.updateWithConflicts<IntResource>(r.metadata, (x) => {
      calls++;
      x.spec.value = 2;
    });
    expect(calls).toBe(2);
    expect(got.spec.value).toBe(2);
    expect(got.metadata.version).toBe(2);
  });

  it.each([
    ['owner', errOwnerConflict, isOwnerConflict],
    ['phase', errPhaseConflict, isPhaseConflict],
  ] as const)('does not retry %s conflicts', async (_, make, is) => {
    let updates = 0;
    const inner = newInmemState();
    const st = wrapCore(
      delegate(inner, {
        update: async (r) => {
          updates++;
          throw make(r.metadata, 'x');
        },
      }),
    );
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    const e = await failure(
      st.updateWithConflicts<IntResource>(r.metadata, (x) => {
        x.spec.value = 2;
      }),
    );
    expect(is(e)).toBe(true);
    expect(updates).toBe(1);
  });

  it('writes nothing when fn changes nothing, and nothing when fn throws', async () => {
    const inner = newInmemState();
    let updates = 0;
    const update: CoreState['update'] = (r, o) => {
      updates++;
      return inner.update(r, o);
    };
    const st = wrapCore(delegate(inner, { update }));
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    const same = await st.updateWithConflicts<IntResource>(r.metadata, (x) => {
      x.spec.value = 1;
    });
    expect(same.metadata.version).toBe(1);
    const boom = new Error('boom');
    expect(
      await failure(
        st.updateWithConflicts<IntResource>(r.metadata, (x) => {
          x.spec.value = 9;
          throw boom;
        }),
      ),
    ).toBe(boom);
    expect(updates).toBe(0);
  });
});

describe('modify', () => {
  it('creates with the owner when absent, then updates', async () => {
    const st = wrapCore(newInmemState());
    const made = await st.modifyWithResult(
      newInt(NS, 'a', 0),
      (r) => {
        r.spec.value = 1;
      },
      {
        owner: 'ctl',
      },
    );
    expect(made.metadata.owner).toBe('ctl');
    expect(made.metadata.version).toBe(1);
    const next = await st.modifyWithResult(
      newInt(NS, 'a', 0),
      (r) => {
        r.spec.value = 2;
      },
      {
        owner: 'ctl',
      },
    );
    expect(next.spec.value).toBe(2);
    expect(next.metadata.version).toBe(2);
  });

  it('falls back to an update when it loses a create race', async () => {
    const inner = newInmemState();
    const st = wrapCore(
      delegate(inner, {
        // the winner sneaks in between our get and our create
        create: async (r, o) => {
          await inner.create(newInt(NS, r.metadata.id, 100)).catch(() => undefined);
          return inner.create(r, o);
        },
      }),
    );
    const got = await st.modifyWithResult(newInt(NS, 'a', 0), (r) => {
      r.spec.value += 1;
    });
    expect(got.spec.value).toBe(101);
    expect(got.metadata.version).toBe(2);
  });
});

describe('teardown', () => {
  it('is idempotent and reports destroy readiness', async () => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 0);
    await st.create(r, { owner: 'ctl' });
    await st.addFinalizer(r.metadata, 'dep');
    expect(await st.teardown(r.metadata, { owner: 'ctl' })).toBe(false);
    expect(await st.teardown(r.metadata, { owner: 'ctl' })).toBe(false);
    expect((await st.get(r.metadata)).metadata.version).toBe(3);
    // finalizers are edited as the current owner, in any phase
    await st.removeFinalizer(r.metadata, 'dep');
    expect(await st.teardown(r.metadata, { owner: 'ctl' })).toBe(true);
  });

  it('delegates to a core that tears down natively', async () => {
    const calls: string[] = [];
    const st = wrapCore(
      delegate(newInmemState(), {
        teardown: async (p, o) => {
          calls.push(`teardown ${p.id} ${o?.owner}`);
          return true;
        },
        teardownAndDestroy: async (p, o) => {
          calls.push(`teardownAndDestroy ${p.id} ${o?.owner}`);
        },
      }),
    );
    const ptr = IntResource.pointer('x', NS);
    expect(await st.teardown(ptr, { owner: 'o' })).toBe(true);
    await st.teardownAndDestroy(ptr, { owner: 'o' });
    expect(calls).toEqual(['teardown x o', 'teardownAndDestroy x o']);
  });

  it('teardownAndDestroy waits for finalizers, then destroys', async ({ signal }) => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 0);
    await st.create(r);
    await st.addFinalizer(r.metadata, 'dep');
    const done = st.teardownAndDestroy(r.metadata, { signal });
    await st.watchFor(r.metadata, { signal, phases: ['tearingDown'] });
    await st.removeFinalizer(r.metadata, 'dep');
    await done;
    expect(isNotFound(await failure(st.get(r.metadata)))).toBe(true);
  });

  it('teardownAndDestroy finishes when someone else destroys the resource', async ({ signal }) => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 0);
    await st.create(r, { owner: 'ctl' });
    await st.addFinalizer(r.metadata, 'dep');
    const done = st.teardownAndDestroy(r.metadata, { signal, owner: 'ctl' });
    await st.watchFor(r.metadata, { signal, phases: ['tearingDown'] });
    await st.removeFinalizer(r.metadata, 'dep');
    await st.destroy(r.metadata, { owner: 'ctl' }).catch((e) => {
      if (!isNotFound(e)) throw e;
    });
    await done;
  });

  it('teardownAndDestroy fails on a missing resource', async () => {
    const st = wrapCore(newInmemState());
    expect(isNotFound(await failure(st.teardownAndDestroy(IntResource.pointer('nope', NS))))).toBe(true);
  });
});

describe('watchFor', () => {
  it('matches every condition given and hands out a private copy', async ({ signal }) => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 0);
    const waiting = st.watchFor(r.metadata, {
      signal,
      eventTypes: ['updated'],
      phases: ['running'],
      finalizersEmpty: true,
      condition: (x) => IntResource.is(x) && x.spec.value >= 2,
    });
    await st.create(r);
    for (const v of [1, 2])
      await st.updateWithConflicts<IntResource>(r.metadata, (x) => {
        x.spec.value = v;
      });
    const got = (await waiting) as IntResource;
    expect(got.spec.value).toBe(2);
    got.spec.value = 50;
    expect(((await st.get(r.metadata)) as IntResource).spec.value).toBe(2);
  });

  it('never matches finalizersEmpty on a destroyed event', async ({ signal }) => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 0);
    const ctrl = new AbortController();
    const waiting = st.watchFor(r.metadata, {
      signal: AbortSignal.any([signal, ctrl.signal]),
      finalizersEmpty: true,
    });
    // the initial event is a destroyed tombstone: no match
    const created = st.watchFor(r.metadata, { signal, eventTypes: ['created'] });
    await st.create(r);
    await created;
    expect((await waiting).metadata.version).toBe(1);
    const cancelled = st.watchFor(r.metadata, { signal: ctrl.signal, eventTypes: ['destroyed'] });
    ctrl.abort(new Error('stop'));
    expect(((await failure(cancelled)) as Error).message).toBe('stop');
  });

  it('rejects with the error of a failed watch', async ({ signal }) => {
    const failing = async function* (): AsyncGenerator<StateEvent> {
      yield { type: 'errored', error: new Error('overrun') };
    };
    const stream = (): WatchStream<StateEvent> => Object.assign(failing(), { close() {} });
    const st = wrapCore(delegate(newInmemState(), { watch: async () => stream() }));
    const ptr = IntResource.pointer('a', NS);
    expect(((await failure(st.watchFor(ptr, { signal, eventTypes: ['created'] }))) as Error).message).toBe(
      'overrun',
    );
    const scope = await st.teardownScope(ptr, { signal });
    await new Promise((resolve) => scope.signal.addEventListener('abort', resolve, { once: true }));
    expect((scope.signal.reason as Error).message).toBe('overrun');
  });
});

describe('teardownScope', () => {
  it('follows its parent signal and close()', async () => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 0);
    await st.create(r);
    const parent = new AbortController();
    const scope = await st.teardownScope(r.metadata, { signal: parent.signal });
    expect(scope.signal.aborted).toBe(false);
    parent.abort(new Error('parent gone'));
    expect((scope.signal.reason as Error).message).toBe('parent gone');
    const other = await st.teardownScope(r.metadata);
    other.close();
    expect(other.signal.aborted).toBe(true);
  });
});
