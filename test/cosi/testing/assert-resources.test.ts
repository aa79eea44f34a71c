import { describe, expect, it } from 'vitest';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import {
  assertLength,
  assertNoResource,
  assertResource,
  assertResources,
} from '../../../src/cosi/testing/assert-resources.js';
import { IntResource, newInt } from '../../../src/cosi/testing/resources.js';

const NS = IntResource.defaultNamespace;

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

describe('assertResource', () => {
  it('passes at once when the resource already satisfies the check', async ({ signal }) => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 1));
    const r = await assertResource(st, IntResource, 'a', (x) => expect(x.spec.value).toBe(1), { signal });
    expect(r.metadata.version).toBe(1);
  });

  it('re-checks on every change until the check passes', async ({ signal }) => {
    const st = wrapCore(newInmemState());
    let checks = 0;
    const waiting = assertResource(
      st,
      IntResource.pointer('a'),
      (x) => {
        checks++;
        expect(IntResource.is(x) && x.spec.value).toBe(3);
      },
      { signal },
    );
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    for (const v of [2, 3])
      await st.updateWithConflicts<IntResource>(r.metadata, (x) => {
        x.spec.value = v;
      });
    const got = await waiting;
    expect(got.metadata.version).toBe(3);
    expect(checks).toBeGreaterThanOrEqual(1);
  });

  it('reports the last failure of the check when time runs out', async () => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 1));
    const e = await failure(
      assertResource(st, IntResource, 'a', (x) => expect(x.spec.value, 'value').toBe(2), { timeoutMs: 20 }),
    );
    expect(String(e)).toContain('value');
    expect(String(e)).toContain('expected 1 to be 2');
  });

  it('reports a missing resource on timeout', async () => {
    const st = newInmemState();
    const e = await failure(assertResource(st, IntResource, 'nope', () => {}, { timeoutMs: 20 }));
    expect((e as Error).message).toBe(`resource ${IntResource.type}(${NS}/nope) doesn't exist`);
  });

  it('stops when its signal aborts', async () => {
    const st = newInmemState();
    const ctrl = new AbortController();
    const waiting = assertResource(st, IntResource, 'nope', () => {}, { signal: ctrl.signal });
    ctrl.abort();
    expect((await failure(waiting)) as Error).toBeInstanceOf(Error);
  });

  it('hands the check a private copy', async ({ signal }) => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 1));
    await assertResource(
      st,
      IntResource,
      'a',
      (x) => {
        x.spec.value = 99;
      },
      { signal },
    );
    expect(((await st.get(IntResource.pointer('a'))) as IntResource).spec.value).toBe(1);
  });
});

describe('assertResources', () => {
  it('waits until every id passes', async ({ signal }) => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 1));
    const waiting = assertResources(
      st,
      IntResource,
      ['a', 'b'],
      (x) => expect(x.spec.value).toBeGreaterThan(0),
      {
        signal,
      },
    );
    await st.create(newInt(NS, 'c', 0));
    await st.create(newInt(NS, 'b', 2));
    const found = await waiting;
    expect([...found.keys()].sort()).toEqual(['a', 'b']);
  });

  it('reports a failing id on timeout', async () => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 1));
    await st.create(newInt(NS, 'b', 0));
    const e = await failure(
      assertResources(
        st,
        { namespace: NS, type: IntResource.type },
        ['a', 'b'],
        (x) => expect(IntResource.is(x) && x.spec.value, x.metadata.id).toBe(1),
        { timeoutMs: 20 },
      ),
    );
    expect(String(e)).toContain('b');
  });
});

describe('assertNoResource and assertLength', () => {
  it('waits for a resource to go away', async ({ signal }) => {
    const st = newInmemState();
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    const gone = assertNoResource(st, IntResource, 'a', { signal });
    await st.destroy(r.metadata);
    await gone;
    await assertNoResource(st, r.metadata, { signal });
  });

  it('reports a resource that stays', async () => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 1));
    const e = await failure(assertNoResource(st, IntResource, 'a', { timeoutMs: 20 }));
    expect((e as Error).message).toBe(`resource ${IntResource.type}(${NS}/a) still exists`);
  });

  it('waits for the kind to hold exactly n resources', async ({ signal }) => {
    const st = newInmemState();
    await assertLength(st, IntResource, 0, { signal });
    const waiting = assertLength(st, IntResource, 2, { signal });
    for (const id of ['a', 'b']) await st.create(newInt(NS, id, 0));
    await waiting;
    const e = await failure(assertLength(st, IntResource, 3, { timeoutMs: 20 }));
    expect((e as Error).message).toBe(`${IntResource.type}(${NS}): expected 3 resources, found 2`);
  });
});
