import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { labelEqual, labelQuery } from '../../../src/cosi/resource/label-query.js';
import type { Resource } from '../../../src/cosi/resource/resource.js';
import type { BackingStore } from '../../../src/cosi/state/backing-store.js';
import type { CoreState } from '../../../src/cosi/state/core.js';
import {
  isInvalidArgument,
  isInvalidBookmark,
  isNotFound,
  isOwnerConflict,
  isPhaseConflict,
  stateErrorCode,
} from '../../../src/cosi/state/errors.js';
import type { StateEvent } from '../../../src/cosi/state/events.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { IntResource, newInt } from '../../../src/cosi/testing/resources.js';
import { stateConformance } from '../../../src/cosi/testing/state-conformance.js';
import { eventReader } from '../../../src/cosi/testing/watch-reader.js';

stateConformance('inmem', async () => ({ state: newInmemState() }));

// one backend shared by every test: the suite keeps tests apart by namespace
const shared = newInmemState({ historyMaxCapacity: 1024 });
stateConformance('inmem (shared backend)', async () => ({ state: shared }));

const NS = 'ns';
const KIND = { namespace: NS, type: IntResource.type };

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

async function createMany(st: CoreState, n: number, prefix = 'r'): Promise<void> {
  for (let i = 0; i < n; i++) await st.create(newInt(NS, `${prefix}${String(i).padStart(4, '0')}`, i));
}

describe('inmem options', () => {
  it.each([
    [{ historyInitialCapacity: 0 }],
    [{ historyInitialCapacity: 1.5 }],
    [{ historyInitialCapacity: 10, historyMaxCapacity: 5 }],
    [{ historyInitialCapacity: 10, historyGap: 10 }],
    [{ historyGap: -1 }],
  ])('rejects %j as an invalid argument', (opts) => {
    let err: unknown;
    try {
      newInmemState(opts);
    } catch (e) {
      err = e;
    }
    expect(isInvalidArgument(err)).toBe(true);
  });

  it('raises the default max capacity to the initial one', async ({ signal }) => {
    const st = newInmemState({ historyInitialCapacity: 300 });
    await createMany(st, 300);
    const tail = eventReader(await st.watchKind(KIND, { signal, tailEvents: 1000 }));
    const events = await tail.take(295); // capacity 300 minus the default gap of 5
    expect(events.map((e) => e.type === 'created' && e.resource.metadata.id)[0]).toBe('r0005');
  });
});

describe('inmem writes', () => {
  it('assigns version 1 on create and +1 on update, written back into the caller', async () => {
    const st = newInmemState();
    const r = newInt(NS, 'a', 1);
    const before = r.metadata.created;
    await st.create(r, { owner: 'ctl' });
    expect(r.metadata.version).toBe(1);
    expect(r.metadata.owner).toBe('ctl');
    expect(r.metadata.created).toBeGreaterThanOrEqual(before);
    r.spec.value = 2;
    await st.update(r, { owner: 'ctl' });
    expect(r.metadata.version).toBe(2);
    const got = await st.get(r.metadata);
    expect(got.metadata.created).toBe(r.metadata.created);
    expect(got.metadata.updated).toBe(r.metadata.updated);
  });

  it('checks an update for existence, then owner, then version, then phase', async () => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 1);
    expect(isNotFound(await failure(st.update(r)))).toBe(true);
    await st.create(r, { owner: 'a' });
    await st.teardown(r.metadata, { owner: 'a' });
    const stale = r.deepCopy(); // version 1, the store has 2 and is tearing down
    expect(isOwnerConflict(await failure(st.update(stale, { owner: 'b' })))).toBe(true);
    expect(stateErrorCode(await failure(st.update(stale, { owner: 'a' })))).toBe('version-conflict');
    stale.metadata.version = 2;
    expect(isPhaseConflict(await failure(st.update(stale, { owner: 'a' })))).toBe(true);
    await st.update(stale, { owner: 'a', expectedPhase: 'any' });
    expect(stale.metadata.version).toBe(3);
  });

  it('reports version conflicts with the upstream message', async () => {
    const st = newInmemState();
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    r.metadata.version = 7;
    const e = (await failure(st.update(r))) as Error;
    expect(e.message).toBe(
      `resource ${IntResource.type}(${NS}/a) update conflict: expected version "7", actual version "1"`,
    );
  });

  it('destroys a running resource, checking owner then finalizers', async () => {
    const st = wrapCore(newInmemState());
    const r = newInt(NS, 'a', 1);
    expect(isNotFound(await failure(st.destroy(r.metadata)))).toBe(true);
    await st.create(r, { owner: 'a' });
    await st.addFinalizer(r.metadata, 'f');
    expect(isOwnerConflict(await failure(st.destroy(r.metadata)))).toBe(true);
    const e = (await failure(st.destroy(r.metadata, { owner: 'a' }))) as Error;
    expect(stateErrorCode(e)).toBe('pending-finalizers');
    expect(e.message).toBe(`resource ${IntResource.type}(${NS}/a) has pending finalizers [f]`);
    await st.removeFinalizer(r.metadata, 'f');
    await st.destroy(r.metadata, { owner: 'a' });
  });

  it('rejects a create whose resource names another owner', async () => {
    const st = newInmemState();
    const r = newInt(NS, 'a', 1);
    r.metadata.owner = 'x';
    expect(isOwnerConflict(await failure(st.create(r, { owner: 'y' })))).toBe(true);
    expect(isNotFound(await failure(st.get(r.metadata)))).toBe(true);
  });
});

describe('inmem copy discipline', () => {
  it('stores copies and hands out copies', async () => {
    const st = newInmemState();
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    r.spec.value = 99;
    r.metadata.labels.set('k', 'v');
    const got = await st.get(r.metadata);
    expect(IntResource.is(got) && got.spec.value).toBe(1);
    expect(got.metadata.labels.empty()).toBe(true);

    if (IntResource.is(got)) got.spec.value = 5;
    got.metadata.finalizers.add('f');
    const again = await st.get(r.metadata);
    expect(IntResource.is(again) && again.spec.value).toBe(1);
    expect(again.metadata.finalizers.empty()).toBe(true);

    const [listed] = await st.list(KIND);
    if (listed && IntResource.is(listed)) listed.spec.value = 7;
    expect(IntResource.is(again) && (await st.get(r.metadata)) && again.spec.value).toBe(1);

    const u = (await st.get(r.metadata)) as IntResource;
    u.spec.value = 2;
    await st.update(u);
    u.spec.value = 3;
    const after = (await st.get(r.metadata)) as IntResource;
    expect(after.spec.value).toBe(2);
  });

  it('shares one immutable event snapshot between watchers', async ({ signal }) => {
    const st = newInmemState();
    const a = eventReader(await st.watchKind(KIND, { signal }));
    const b = eventReader(await st.watchKind(KIND, { signal }));
    await st.create(newInt(NS, 'a', 1));
    const [ea, eb] = [await a.next(), await b.next()];
    expect(ea).toBe(eb);
  });
});

describe('inmem list', () => {
  it('sorts by id and filters by labels and id', async () => {
    const st = newInmemState();
    for (const id of ['c', 'a', 'b', 'aa']) {
      const r = newInt(NS, id, 0);
      r.metadata.labels.set('odd', String(id.length % 2 === 1));
      await st.create(r);
    }
    const ids = (rs: Resource[]) => rs.map((r) => r.metadata.id);
    expect(ids(await st.list(KIND))).toEqual(['a', 'aa', 'b', 'c']);
    expect(ids(await st.list(KIND, { labelQueries: [labelQuery(labelEqual('odd', 'false'))] }))).toEqual([
      'aa',
    ]);
    expect(ids(await st.list(KIND, { idQuery: { regexp: /^[ab]$/ } }))).toEqual(['a', 'b']);
    await st.destroy({ ...KIND, id: 'a' });
    await st.create(newInt(NS, '0', 0));
    expect(ids(await st.list(KIND))).toEqual(['0', 'aa', 'b', 'c']);
    expect(await st.list({ namespace: 'other', type: IntResource.type })).toEqual([]);
  });
});

describe('inmem history', () => {
  const tailLength = async (st: CoreState, signal: AbortSignal): Promise<number> => {
    const w = await st.watchKind(KIND, { signal, tailEvents: 10_000 });
    const marker = newInt(NS, `marker-${Math.random()}`, 0);
    await st.create(marker);
    const r = eventReader(w);
    let n = 0;
    for (;;) {
      const ev = await r.next();
      if (ev.type === 'created' && ev.resource.metadata.id === marker.metadata.id) break;
      n++;
    }
    w.close();
    return n;
  };

  it('grows the ring during its first wrap, up to the max capacity', async ({ signal }) => {
    const st = newInmemState({ historyInitialCapacity: 2, historyMaxCapacity: 8, historyGap: 1 });
    await createMany(st, 3);
    // 2 → 4 at the third write: the tail may reach capacity − gap = 3
    expect(await tailLength(st, signal)).toBe(3);
    await createMany(st, 30, 'x');
    expect(await tailLength(st, signal)).toBe(7);
  });

  it('keeps a ring without headroom at its initial size', async ({ signal }) => {
    const st = newInmemState({ historyInitialCapacity: 4, historyMaxCapacity: 4, historyGap: 1 });
    await createMany(st, 10);
    expect(await tailLength(st, signal)).toBe(3);
  });

  it('keeps the gap out of tails of a single resource', async ({ signal }) => {
    const st = newInmemState({ historyInitialCapacity: 10, historyMaxCapacity: 10, historyGap: 4 });
    const r = newInt(NS, 'a', 0);
    await st.create(r);
    for (let i = 0; i < 11; i++) await st.update(r);
    // 12 events of one resource; only the newest capacity − gap = 6 are safe
    const w = eventReader(await st.watch(r.metadata, { signal, tailEvents: 100 }));
    const first = await w.next();
    expect(first.type === 'updated' && first.resource.metadata.version).toBe(7);
  });

  it('accepts bookmarks only outside the gap', async ({ signal }) => {
    const st = newInmemState({ historyInitialCapacity: 10, historyMaxCapacity: 10, historyGap: 3 });
    const w = eventReader(await st.watchKind(KIND, { signal }));
    const reading = w.take(20); // keep up, or the small ring overruns
    await createMany(st, 20);
    const events = await reading;
    // write pos 20, capacity 10, gap 3: positions 13…19 are resumable
    expect(
      isInvalidBookmark(await failure(st.watchKind(KIND, { startFromBookmark: events[12]!.bookmark! }))),
    ).toBe(true);
    const resumed = eventReader(
      await st.watchKind(KIND, { signal, startFromBookmark: events[13]!.bookmark! }),
    );
    const next = await resumed.next();
    expect(next.type === 'created' && next.resource.metadata.id).toBe('r0014');
    const single = st.watch({ ...KIND, id: 'r0012' }, { startFromBookmark: events[12]!.bookmark! });
    expect(isInvalidBookmark(await failure(single))).toBe(true);
  });

  it('rejects bookmarks of another process and malformed ones', async ({ signal }) => {
    const st = newInmemState();
    const w = eventReader(await st.watchKind(KIND, { signal }));
    await st.create(newInt(NS, 'a', 0));
    const { bookmark } = await w.next();
    const foreign = Uint8Array.from(bookmark!);
    foreign[0] = foreign[0]! ^ 0xff;
    expect(isInvalidBookmark(await failure(st.watchKind(KIND, { startFromBookmark: foreign })))).toBe(true);
    expect(
      isInvalidBookmark(await failure(st.watchKind(KIND, { startFromBookmark: bookmark!.slice(0, 8) }))),
    ).toBe(true);
    expect(
      isInvalidBookmark(await failure(st.watch({ ...KIND, id: 'a' }, { startFromBookmark: foreign }))),
    ).toBe(true);
  });

  it('gives a quiet kind a resumable bootstrap bookmark', async ({ signal }) => {
    const st = newInmemState();
    const w = eventReader(await st.watchKind(KIND, { signal, bootstrapBookmark: true }));
    const noop = await w.next();
    expect(noop.type).toBe('noop');
    expect(noop.bookmark).toHaveLength(16);
    await st.create(newInt(NS, 'a', 0));
    const resumed = eventReader(await st.watchKind(KIND, { signal, startFromBookmark: noop.bookmark! }));
    const ev = await resumed.next();
    expect(ev.type === 'created' && ev.resource.metadata.id).toBe('a');
  });
});

describe('inmem overrun', () => {
  const overrunMessage = `buffer overrun: namespace "${NS}" type "${IntResource.type}", write pos 11, pos 0, capacity 10`;
  const small = () => newInmemState({ historyInitialCapacity: 10, historyMaxCapacity: 10, historyGap: 2 });

  it('ends a kind watch with one errored event', async ({ signal }) => {
    const st = small();
    const w = await st.watchKind(KIND, { signal });
    await createMany(st, 11);
    const it = w[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.done).toBe(false);
    const ev = first.value as StateEvent;
    expect(ev.type).toBe('errored');
    expect(ev.type === 'errored' && ev.error.message).toBe(overrunMessage);
    expect((await it.next()).done).toBe(true);
  });

  it('ends an aggregated watch with one errored batch', async ({ signal }) => {
    const st = small();
    const w = await st.watchKindAggregated(KIND, { signal });
    await createMany(st, 11);
    const it = w[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.map((e: StateEvent) => e.type)).toEqual(['errored']);
    expect((await it.next()).done).toBe(true);
  });

  it('ends a single-resource watch the same way', async ({ signal }) => {
    const st = small();
    const w = await st.watch({ ...KIND, id: 'r0000' }, { signal, tailEvents: 1 });
    await createMany(st, 11);
    const it = w[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.type === 'errored' && first.value.error.message).toBe(overrunMessage);
    expect((await it.next()).done).toBe(true);
  });

  it('never overruns a consumer that keeps up', async ({ signal }) => {
    const st = small();
    const w = eventReader(await st.watchKind(KIND, { signal }));
    const reading = w.take(100);
    await createMany(st, 100);
    expect((await reading).every((e) => e.type === 'created')).toBe(true);
  });
});

describe('inmem watch modes', () => {
  it('rejects incompatible options as invalid arguments', async () => {
    const st = newInmemState();
    const w = eventReader(await st.watchKind(KIND, { bootstrapBookmark: true }));
    const { bookmark } = await w.next();
    w.close();
    const bad: [string, Promise<unknown>][] = [
      [
        'watch tail+bookmark',
        st.watch({ ...KIND, id: 'a' }, { tailEvents: 1, startFromBookmark: bookmark! }),
      ],
      ['kind tail+bookmark', st.watchKind(KIND, { tailEvents: 1, startFromBookmark: bookmark! })],
      ['bootstrap+tail', st.watchKind(KIND, { bootstrapContents: true, tailEvents: 1 })],
      [
        'bootstrap+bookmark',
        st.watchKindAggregated(KIND, { bootstrapContents: true, startFromBookmark: bookmark! }),
      ],
    ];
    for (const [title, p] of bad) expect(isInvalidArgument(await failure(p)), title).toBe(true);
  });

  it('bootstraps sorted contents, then a kind tombstone with a bookmark', async ({ signal }) => {
    const st = newInmemState();
    for (const id of ['b', 'c', 'a']) await st.create(newInt(NS, id, 0));
    const w = eventReader(await st.watchKind(KIND, { signal, bootstrapContents: true }));
    const events = await w.take(4);
    expect(events.map((e) => e.type)).toEqual(['created', 'created', 'created', 'bootstrapped']);
    expect(events.slice(0, 3).map((e) => e.type === 'created' && e.resource.metadata.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    const boot = events[3]!;
    expect(boot.type === 'bootstrapped' && boot.resource.metadata.id).toBe('');
    expect(boot.bookmark).toHaveLength(16);
  });

  it('aggregates everything pending at a wake-up into one batch', async ({ signal }) => {
    const st = newInmemState();
    await st.create(newInt(NS, 'a', 0));
    const w = await st.watchKindAggregated(KIND, { signal, bootstrapContents: true });
    const it = w[Symbol.asyncIterator]();
    const boot = await it.next();
    expect(boot.value?.map((e: StateEvent) => e.type)).toEqual(['created', 'bootstrapped']);
    await Promise.all([
      st.create(newInt(NS, 'b', 0)),
      st.create(newInt(NS, 'c', 0)),
      st.destroy({ ...KIND, id: 'a' }),
    ]);
    const batch = await it.next();
    expect(batch.value?.map((e: StateEvent) => e.type)).toEqual(['created', 'created', 'destroyed']);
  });

  it('turns updates crossing a label filter into created and destroyed, and drops the rest', async ({
    signal,
  }) => {
    const st = wrapCore(newInmemState());
    const w = eventReader(
      await st.watchKind(KIND, { signal, labelQueries: [labelQuery(labelEqual('on', 'yes'))] }),
    );
    const r = newInt(NS, 'a', 0);
    await st.create(r); // does not match: dropped
    const label = (v: string) =>
      st.updateWithConflicts(r.metadata, (x) => void x.metadata.labels.set('on', v));
    await label('no'); // dropped
    await label('yes'); // enters: created
    await label('yes'); // no change: nothing written
    await st.updateWithConflicts<IntResource>(r.metadata, (x) => {
      x.spec.value = 1;
    }); // updated
    await label('no'); // leaves: destroyed
    const events = await w.take(3);
    expect(events.map((e) => e.type)).toEqual(['created', 'updated', 'destroyed']);
    expect('old' in events[0]!).toBe(false);
    expect('old' in events[2]!).toBe(false);
  });
});

describe('inmem cancellation', () => {
  it('ends iteration quietly on abort and releases the signal', async () => {
    const st = newInmemState();
    const ctrl = new AbortController();
    const w = await st.watchKind(KIND, { signal: ctrl.signal });
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
    const pending = w[Symbol.asyncIterator]().next();
    ctrl.abort();
    expect((await pending).done).toBe(true);
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
  });

  it('ends iteration on close and on break', async () => {
    const st = newInmemState();
    const ctrl = new AbortController();
    const w = await st.watch({ ...KIND, id: 'a' }, { signal: ctrl.signal });
    for await (const ev of w) {
      expect(ev.type).toBe('destroyed');
      break;
    }
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
    const w2 = await st.watchKindAggregated(KIND, { signal: ctrl.signal });
    const pending = w2[Symbol.asyncIterator]().next();
    w2.close();
    expect((await pending).done).toBe(true);
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
  });

  it('keeps one abort listener per signal, however many watches share it', async () => {
    const st = newInmemState();
    const ctrl = new AbortController();
    const streams = await Promise.all(
      Array.from({ length: 50 }, (_, i) => st.watch({ ...KIND, id: `r${i}` }, { signal: ctrl.signal })),
    );
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
    streams[0]!.close();
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
    ctrl.abort();
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
    for (const s of streams.slice(1)) {
      const it = s[Symbol.asyncIterator]();
      expect((await it.next()).done).toBe(true);
    }
  });

  it('refuses to open a watch on an aborted signal', async () => {
    const st = newInmemState();
    const e = await failure(st.watchKind(KIND, { signal: AbortSignal.abort() }));
    expect((e as Error).name).toBe('AbortError');
  });
});

/** memoryStore is a fake BackingStore over a Map, with switchable failures. */
function memoryStore(initial: Resource[] = []) {
  const data = new Map<string, Resource>(initial.map((r) => [r.metadata.id, r]));
  const calls: string[] = [];
  const fail = { load: 0, put: false, destroy: false };
  const store: BackingStore = {
    async load(handler) {
      calls.push('load');
      if (fail.load > 0) {
        fail.load--;
        throw new Error('load failed');
      }
      for (const r of data.values()) handler(r.deepCopy());
    },
    async put(r) {
      calls.push(`put ${r.metadata.id}@${r.metadata.version}`);
      if (fail.put) throw new Error('disk full');
      data.set(r.metadata.id, r.deepCopy());
    },
    async destroy(ptr) {
      calls.push(`destroy ${ptr.id}`);
      if (fail.destroy) throw new Error('disk gone');
      data.delete(ptr.id);
    },
  };
  return { store, data, calls, fail };
}

describe('inmem backing store', () => {
  const stored = (id: string, value: number) => {
    const r = newInt(NS, id, value);
    r.metadata.version = 4;
    return r;
  };

  it('loads once, lazily, and announces loaded resources as created', async ({ signal }) => {
    const { store, calls } = memoryStore([stored('b', 2), stored('a', 1)]);
    const st = newInmemState({ backingStore: store });
    expect(calls).toEqual([]);
    const got = await st.get({ ...KIND, id: 'a' });
    expect(got.metadata.version).toBe(4);
    expect((await st.list(KIND)).map((r) => r.metadata.id)).toEqual(['a', 'b']);
    const tail = eventReader(await st.watchKind(KIND, { signal, tailEvents: 10 }));
    expect((await tail.take(2)).map((e) => e.type)).toEqual(['created', 'created']);
    expect(calls).toEqual(['load']);
  });

  it('retries a failed load on the next operation', async () => {
    const { store, fail, calls } = memoryStore([stored('a', 1)]);
    fail.load = 1;
    const st = newInmemState({ backingStore: store });
    expect(((await failure(st.get({ ...KIND, id: 'a' }))) as Error).message).toBe('load failed');
    expect((await st.get({ ...KIND, id: 'a' })).metadata.id).toBe('a');
    expect(calls).toEqual(['load', 'load']);
  });

  it('writes through before committing to memory', async () => {
    const { store, data, calls } = memoryStore();
    const st = newInmemState({ backingStore: store });
    const r = newInt(NS, 'a', 1);
    await st.create(r);
    r.spec.value = 2;
    await st.update(r);
    expect((data.get('a') as IntResource).spec.value).toBe(2);
    expect(data.get('a')?.metadata.version).toBe(2);
    await st.destroy(r.metadata);
    expect(data.has('a')).toBe(false);
    expect(calls).toEqual(['load', 'put a@1', 'put a@2', 'destroy a']);
  });

  it('fails the operation and leaves memory unchanged when the store fails', async ({ signal }) => {
    const { store, fail } = memoryStore();
    const st = newInmemState({ backingStore: store });
    const w = eventReader(await st.watchKind(KIND, { signal }));
    fail.put = true;
    const r = newInt(NS, 'a', 1);
    expect(((await failure(st.create(r))) as Error).message).toBe('disk full');
    expect(r.metadata.version).toBeUndefined();
    expect(isNotFound(await failure(st.get(r.metadata)))).toBe(true);

    fail.put = false;
    await st.create(r);
    fail.put = true;
    r.spec.value = 2;
    expect(((await failure(st.update(r))) as Error).message).toBe('disk full');
    expect(((await st.get(r.metadata)) as IntResource).spec.value).toBe(1);

    fail.destroy = true;
    expect(((await failure(st.destroy(r.metadata))) as Error).message).toBe('disk gone');
    expect((await st.get(r.metadata)).metadata.version).toBe(1);

    // the watcher saw exactly the one successful write
    fail.destroy = false;
    await st.destroy(r.metadata);
    expect((await w.take(2)).map((e) => e.type)).toEqual(['created', 'destroyed']);
  });

  it('serialises concurrent writes so checks and commits stay atomic', async () => {
    const { store } = memoryStore();
    const st = newInmemState({ backingStore: store });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => st.create(newInt(NS, 'a', 1))));
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    const destroys = await Promise.allSettled(
      Array.from({ length: 5 }, () => st.destroy({ ...KIND, id: 'a' })),
    );
    expect(destroys.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
  });
});
