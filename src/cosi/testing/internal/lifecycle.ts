// State conformance: finalizers, teardown, destroy, waiting for conditions, and modify.
import { expect } from 'vitest';
import { isConflict, isNotFound, isOwnerConflict, isPhaseConflict } from '../../state/errors.js';
import { IntResource, newInt } from '../resources.js';
import { type Define, failure } from './env.js';

/** aborted resolves once the signal aborts. */
const aborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

export function lifecycleTests(test: Define): void {
  test('ConcurrentFinalizers', async ({ st, path }) => {
    const res = path('var/final');
    await st.create(res);

    await Promise.all([
      ...['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((f) => st.addFinalizer(res.metadata, f)),
      ...['A', 'B', 'C'].map((f) => st.removeFinalizer(res.metadata, f)),
    ]);
    await Promise.all(['A', 'B', 'C'].map((f) => st.removeFinalizer(res.metadata, f)));

    const got = await st.get(res.metadata);
    expect([...got.metadata.finalizers.list()].sort()).toEqual(['D', 'E', 'F', 'G', 'H']);
  });

  test('WatchFor', async ({ st, ns, path, signal }) => {
    const path1 = path('tmp/one');
    // a separate pointer: create and update write metadata back into path1
    const ptr = { namespace: ns, type: path1.metadata.type, id: path1.metadata.id };

    let waiting = st.watchFor(ptr, { signal, eventTypes: ['created'] });
    await st.create(path1);
    let r = await waiting;
    expect(r.metadata.toString()).toBe(path1.metadata.toString());

    r = await st.watchFor(path1.metadata, { signal, finalizersEmpty: true });
    expect(r.metadata.toString()).toBe(path1.metadata.toString());

    waiting = st.watchFor(ptr, { signal, phases: ['tearingDown'] });
    expect(await st.teardown(path1.metadata)).toBe(true);
    r = await waiting;
    expect(r.metadata.id).toBe(path1.metadata.id);
    expect(r.metadata.phase).toBe('tearingDown');

    waiting = st.watchFor(ptr, { signal, eventTypes: ['destroyed'] });
    await st.addFinalizer(path1.metadata, 'A');
    await st.removeFinalizer(path1.metadata, 'A');
    await st.destroy(path1.metadata);
    r = await waiting;
    expect(r.metadata.id).toBe(path1.metadata.id);

    // a custom condition on the resource
    waiting = st.watchFor(ptr, { signal, condition: (x) => x.metadata.labels.get('ready') === 'yes' });
    await st.create(path1);
    await st.updateWithConflicts(path1.metadata, (x) => {
      x.metadata.labels.set('ready', 'yes');
    });
    r = await waiting;
    expect(r.metadata.labels.get('ready')).toBe('yes');
  });

  test('TeardownDestroy', async ({ st, path }) => {
    const path1 = path('tmp/1');
    await st.create(path1);
    await st.addFinalizer(path1.metadata, 'A');

    expect(isConflict(await failure(st.destroy(path1.metadata)))).toBe(true);
    expect(await st.teardown(path1.metadata)).toBe(false);
    const version = (await st.get(path1.metadata)).metadata.version;
    // a repeated teardown changes nothing
    expect(await st.teardown(path1.metadata)).toBe(false);
    expect((await st.get(path1.metadata)).metadata.version).toBe(version);
    expect(isConflict(await failure(st.destroy(path1.metadata)))).toBe(true);

    await st.removeFinalizer(path1.metadata, 'A');
    expect(await st.teardown(path1.metadata)).toBe(true);
    await st.destroy(path1.metadata);
  });

  test('ContextWithTeardown', async ({ st, path, signal }) => {
    const path1 = path('ctx/r1');
    const path2 = path('ctx/r2');

    // absent: cancelled at once
    const absent = await st.teardownScope(path1.metadata, { signal });
    await aborted(absent.signal);

    await st.create(path1);
    await st.create(path2);
    const scope1 = await st.teardownScope(path1.metadata, { signal });
    const scope2 = await st.teardownScope(path2.metadata, { signal });
    expect(scope1.signal.aborted).toBe(false);
    expect(scope2.signal.aborted).toBe(false);

    await st.destroy(path1.metadata);
    await aborted(scope1.signal);

    // an update that keeps path2 running does not cancel its scope
    await st.updateWithConflicts(path2.metadata, (r) => {
      r.metadata.labels.set('touched', 'yes');
    });
    await st.watchFor(path2.metadata, { signal, condition: (r) => r.metadata.labels.has('touched') });
    expect(scope2.signal.aborted).toBe(false);

    await st.teardown(path2.metadata);
    await aborted(scope2.signal);
    scope2.close();
  });

  test('TeardownAndDestroy', async ({ st, path, signal, watchKind }) => {
    const path1 = path('tmp/4');
    const path2 = path('tmp/5');
    const path3 = path('tmp/6');

    // a "controller" that drops finalizer A from anything tearing down
    const w = await watchKind(false, { bootstrapContents: true });
    const remover = (async () => {
      for (;;) {
        const ev = await w.next().catch(() => undefined);
        if (!ev) return;
        if (ev.type !== 'created' && ev.type !== 'updated') continue;
        const md = ev.resource.metadata;
        if (md.phase === 'tearingDown' && md.finalizers.has('A'))
          await st.removeFinalizer(md, 'A', { signal });
      }
    })();

    await st.create(path1);
    await st.create(path2);
    await st.addFinalizer(path1.metadata, 'A');
    await st.addFinalizer(path2.metadata, 'B');

    await st.teardownAndDestroy(path1.metadata, { signal });
    expect(isNotFound(await failure(st.get(path1.metadata)))).toBe(true);

    expect(await st.teardown(path2.metadata)).toBe(false);
    expect((await st.get(path2.metadata)).metadata.phase).toBe('tearingDown');
    await st.removeFinalizer(path2.metadata, 'B');
    await st.teardownAndDestroy(path2.metadata, { signal });
    expect(isNotFound(await failure(st.get(path2.metadata)))).toBe(true);

    // two actors racing to tear down and destroy the same resource both finish
    await st.create(path3);
    await st.addFinalizer(path3.metadata, 'A');
    await Promise.all([
      st.teardownAndDestroy(path3.metadata, { signal }),
      st.teardownAndDestroy(path3.metadata, { signal }),
    ]);
    expect(isNotFound(await failure(st.get(path3.metadata)))).toBe(true);

    w.close();
    await remover;
  });

  test('Modify', async ({ st, ns }) => {
    const id = 'modify/1';
    const created = await st.modifyWithResult(newInt(ns, id, 0), (r) => {
      r.spec.value = 1;
    });
    expect(created.metadata.version).toBe(1);
    expect(created.spec.value).toBe(1);

    const updated = await st.modifyWithResult(newInt(ns, id, 0), (r) => {
      r.spec.value = 2;
    });
    expect(updated.metadata.version).toBe(2);
    expect(updated.spec.value).toBe(2);

    // an unchanged result writes nothing
    await st.modify(newInt(ns, id, 0), (r) => {
      r.spec.value = 2;
    });
    const got = await st.get(IntResource.pointer(id, ns));
    expect(got.metadata.version).toBe(2);

    // tearing-down resources are not modified unless the phase is expected
    await st.teardown(got.metadata);
    expect(
      isPhaseConflict(
        await failure(
          st.modify(newInt(ns, id, 0), (r) => {
            r.spec.value = 3;
          }),
        ),
      ),
    ).toBe(true);
    await st.modify(
      newInt(ns, id, 0),
      (r) => {
        r.spec.value = 3;
      },
      { expectedPhase: 'tearingDown' },
    );
    const last = await st.get(got.metadata);
    expect(IntResource.is(last) && last.spec.value).toBe(3);
  });

  test('ModifyWithOwner', async ({ st, ns }) => {
    const id = 'modify/owned';
    const owner = 'owner1';
    await st.modify(
      newInt(ns, id, 0),
      (r) => {
        r.spec.value = 1;
      },
      { owner },
    );
    let got = await st.get(IntResource.pointer(id, ns));
    expect(got.metadata.owner).toBe(owner);

    await st.modify(
      newInt(ns, id, 0),
      (r) => {
        r.spec.value = 2;
      },
      { owner },
    );
    got = await st.get(got.metadata);
    expect(got.metadata.version).toBe(2);
    expect(got.metadata.owner).toBe(owner);

    expect(
      isOwnerConflict(
        await failure(
          st.modify(newInt(ns, id, 0), (r) => {
            r.spec.value = 3;
          }),
        ),
      ),
    ).toBe(true);
    expect(
      isOwnerConflict(
        await failure(
          st.modify(
            newInt(ns, id, 0),
            (r) => {
              r.spec.value = 3;
            },
            { owner: 'owner2' },
          ),
        ),
      ),
    ).toBe(true);
    expect((await st.get(got.metadata)).metadata.version).toBe(2);
  });
}
