// A whole state restarted over its durable store: what controllers and users see must not change.
import { describe, expect, it } from 'vitest';
import { labelEqual, labelQuery } from '../../../../src/cosi/resource/label-query.js';
import type { Resource } from '../../../../src/cosi/resource/resource.js';
import type { ResourceOf } from '../../../../src/cosi/resource/typed.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../../src/cosi/state/state.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { eventReader } from '../../../../src/cosi/testing/watch-reader.js';
import { useHarness } from './fixtures/harness.js';
import { Sample } from './fixtures/resources.js';

const h = useHarness();
type SampleResource = ResourceOf<typeof Sample>;

const NS = 'persistent';
const KIND = { namespace: NS, type: Sample.type };

const everything = async (st: State): Promise<Resource[]> => st.list(KIND);

describe('inmem state over a durable store, restarted', () => {
  it('comes back with the same resources, metadata and specs', async ({ signal }) => {
    const dir = await h.tempDir();
    const store1 = h.store({ dir, compactEvery: 5 });
    const st1 = wrapCore(newInmemState({ backingStore: store1 }));

    const a = Sample.new(NS, 'a', { addr: new Uint8Array([192, 168, 0, 1]), ttl: 30n });
    a.metadata.labels.set('role', 'worker');
    a.metadata.annotations.set('note', 'first');
    await st1.create(a, { owner: 'ctl' });
    await st1.create(Sample.new(NS, 'b', { routes: new Map([['default', '10.0.0.1']]) }));
    await st1.create(Sample.new(NS, 'c', { gone: true }));
    await st1.addFinalizer(Sample.pointer('b', NS), ['dep-1', 'dep-2']);
    await st1.teardown(Sample.pointer('b', NS));
    await st1.updateWithConflicts<SampleResource>(
      a.metadata,
      (r) => {
        r.spec.when = new Date(1_700_000_000_000);
      },
      { owner: 'ctl' },
    );
    await st1.destroy(Sample.pointer('c', NS));
    const before = await everything(st1);
    await store1.close();

    const store2 = h.store({ dir });
    const st2 = wrapCore(newInmemState({ backingStore: store2 }));
    const after = await everything(st2);
    expect(after.map((r) => r.metadata.id)).toEqual(['a', 'b']);
    for (const [i, r] of before.entries()) {
      const b = after[i]!;
      expect(b.metadata.equal(r.metadata), r.metadata.id).toBe(true);
      expect([b.metadata.created, b.metadata.updated]).toEqual([r.metadata.created, r.metadata.updated]);
      expect(b.spec).toStrictEqual(r.spec);
    }
    expect(after[1]!.metadata).toMatchObject({ phase: 'tearingDown', version: 3 });

    // The restarted state keeps working: optimistic versions continue, and loaded resources bootstrap watches.
    const w = eventReader(await st2.watchKind(KIND, { signal, bootstrapContents: true }));
    expect((await w.take(3)).map((e) => e.type)).toEqual(['created', 'created', 'bootstrapped']);
    await st2.removeFinalizer(Sample.pointer('b', NS), ['dep-1', 'dep-2']);
    await st2.destroy(Sample.pointer('b', NS));
    const updated = await st2.updateWithConflicts(
      Sample.pointer('a', NS),
      (r) => void r.metadata.labels.set('role', 'controlplane'),
      { owner: 'ctl' },
    );
    expect(updated.metadata.version).toBe(3);
    await store2.close();

    const st3 = wrapCore(newInmemState({ backingStore: h.store({ dir }) }));
    const final = await st3.list(KIND, { labelQueries: [labelQuery(labelEqual('role', 'controlplane'))] });
    expect(final.map((r) => [r.metadata.id, r.metadata.version])).toEqual([['a', 3]]);
    expect(await everything(st3)).toHaveLength(1);
  });
});
