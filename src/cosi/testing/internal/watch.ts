// State conformance: Watch and WatchKind, plain and aggregated, with tails, labels and bookmarks.
import { expect } from 'vitest';
import { labelEqual, labelExists, labelQuery } from '../../resource/label-query.js';
import { equal, type Resource, resourceString } from '../../resource/resource.js';
import { isUnsupported } from '../../state/errors.js';
import type { StateEvent } from '../../state/events.js';
import { eventReader } from '../watch-reader.js';
import { type Define, failure } from './env.js';

const str = resourceString;

const resourceOf = (ev: StateEvent): Resource | undefined => ('resource' in ev ? ev.resource : undefined);
const oldOf = (ev: StateEvent): Resource | undefined => (ev.type === 'updated' ? ev.old : undefined);

/** sameEvent compares as upstream's reducedEvent: the type and the resource. */
function sameEvent(a: StateEvent, b: StateEvent): boolean {
  const ra = resourceOf(a);
  const rb = resourceOf(b);
  return a.type === b.type && ra !== undefined && rb !== undefined && equal(ra, rb);
}

/** expectAll checks that `events` contains every expected event. */
function expectAll(events: StateEvent[], expected: StateEvent[]): void {
  for (const want of expected)
    expect(
      events.some((ev) => sameEvent(want, ev)),
      `missing ${want.type} ${resourceOf(want)?.metadata}`,
    ).toBe(true);
}

export function watchTests(test: Define): void {
  for (const aggregated of [false, true]) {
    const suffix = aggregated ? 'Aggregated' : '';

    test(`WatchKind${suffix}`, async ({ st, path, watchKind }) => {
      const path1 = path(`var/db/${aggregated}`);
      const path2 = path(`var/tmp/${aggregated}`);
      await st.create(path1);

      const w = await watchKind(aggregated);
      await st.create(path2);
      let ev = await w.next();
      expect(ev.type).toBe('created');
      expect(str(resourceOf(ev)!)).toBe(str(path2));

      await st.teardown(path1.metadata);
      await st.destroy(path1.metadata);
      ev = await w.next();
      expect(ev.type).toBe('updated');
      expect(str(resourceOf(ev)!)).toBe(str(path1));
      expect(str(oldOf(ev)!)).toBe(str(path1));
      ev = await w.next();
      expect(ev.type).toBe('destroyed');
      expect(str(resourceOf(ev)!)).toBe(str(path1));

      const oldVersion = path2.metadata.version;
      await st.update(path2);
      ev = await w.next();
      expect(ev.type).toBe('updated');
      expect(resourceOf(ev)!.metadata.version).toBe(path2.metadata.version);
      expect(oldOf(ev)!.metadata.version).toBe(oldVersion);

      const wb = await watchKind(aggregated, { bootstrapContents: true });
      for (const r of await st.list(path1.metadata)) {
        ev = await wb.next();
        expect(ev.type).toBe('created');
        expect(str(resourceOf(ev)!)).toBe(str(r));
        expect(resourceOf(ev)!.metadata.version).toBe(r.metadata.version);
      }
      ev = await wb.next();
      expect(ev.type).toBe('bootstrapped');
      expect(resourceOf(ev)!.metadata.namespace).toBe(path1.metadata.namespace);
      expect(resourceOf(ev)!.metadata.type).toBe(path1.metadata.type);

      await st.update(path2);
      for (const reader of [w, wb]) {
        ev = await reader.next();
        expect(ev.type).toBe('updated');
        expect(str(resourceOf(ev)!)).toBe(str(path2));
        expect(resourceOf(ev)!.metadata.version).toBe(path2.metadata.version);
      }
    });

    test(`WatchKind${suffix}WithTailEvents`, async ({ st, kind, path, signal, opts, watchKind }) => {
      const res = path(`res/watch-kind-with-tail-events/${aggregated}`);
      const w = await watchKind(aggregated);
      await st.create(res);
      await st.update(res);
      await st.update(res);
      await st.teardown(res.metadata);
      await st.destroy(res.metadata);
      const expected = await w.take(5);

      const opening = aggregated
        ? st.watchKindAggregated(kind, { signal, tailEvents: 1000 })
        : st.watchKind(kind, { signal, tailEvents: 1000 });
      if (!opts.supportsTailEvents) {
        expect(isUnsupported(await failure(opening))).toBe(true);
        return;
      }
      const tail = eventReader(await opening);
      expectAll(await tail.take(expected.length), expected);
    });

    test(`WatchKind${suffix}WithLabels`, async ({ st, path, watchKind }) => {
      const [labelLabel, labelCommon, labelApp] = ['label', 'common', 'app'].map(
        (l) => `${l}/${aggregated}`,
      ) as [string, string, string];
      const path1 = path(`var/label1/${aggregated}`);
      path1.metadata.labels.do((m) => Object.assign(m, { [labelLabel]: 'label1', [labelCommon]: 'app' }));
      const path2 = path(`var/label2/${aggregated}`);
      path2.metadata.labels.do((m) => Object.assign(m, { [labelLabel]: 'label2', [labelCommon]: 'app' }));
      const path3 = path(`var/label3/${aggregated}`);
      path3.metadata.labels.set(labelLabel, 'label3');

      await st.create(path1);
      const chLabel1 = await watchKind(aggregated, {
        bootstrapContents: true,
        labelQueries: [labelQuery(labelEqual(labelLabel, 'label1'))],
      });
      const chCommon = await watchKind(aggregated, {
        bootstrapContents: true,
        labelQueries: [labelQuery(labelExists(labelCommon))],
      });
      const chOr = await watchKind(aggregated, {
        bootstrapContents: true,
        labelQueries: [
          labelQuery(labelEqual(labelLabel, 'label2')),
          labelQuery(labelEqual(labelLabel, 'label3')),
        ],
      });

      await st.create(path2);
      await st.create(path3);

      const expectEvent = async (r: typeof chOr, type: StateEvent['type'], res?: Resource) => {
        const ev = await r.next();
        expect(ev.type).toBe(type);
        if (res) expect(str(resourceOf(ev)!)).toBe(str(res));
        return ev;
      };

      await expectEvent(chLabel1, 'created', path1);
      await expectEvent(chCommon, 'created', path1);
      for (const r of [chLabel1, chCommon, chOr]) {
        const ev = await expectEvent(r, 'bootstrapped');
        expect(resourceOf(ev)!.metadata.namespace).toBe(path1.metadata.namespace);
        expect(resourceOf(ev)!.metadata.type).toBe(path1.metadata.type);
      }
      await expectEvent(chCommon, 'created', path2);
      await expectEvent(chOr, 'created', path2);
      await expectEvent(chOr, 'created', path3);

      // path3 starts matching exists(common): a synthetic created
      await st.updateWithConflicts(path3.metadata, (r) => {
        r.metadata.labels.set(labelCommon, 'foo');
      });
      let ev = await expectEvent(chCommon, 'created', path3);
      expect(oldOf(ev)).toBeUndefined();

      // an update that keeps matching passes through
      await st.updateWithConflicts(path1.metadata, (r) => {
        r.metadata.labels.set(labelApp, 'app-awesome');
      });
      for (const r of [chLabel1, chCommon]) {
        ev = await expectEvent(r, 'updated', path1);
        expect(resourceOf(ev)!.metadata.labels.has(labelApp)).toBe(true);
        expect(str(oldOf(ev)!)).toBe(str(path1));
        expect(oldOf(ev)!.metadata.labels.has(labelApp)).toBe(false);
      }

      // path1 stops matching exists(common): a synthetic destroyed
      await st.updateWithConflicts(path1.metadata, (r) => {
        r.metadata.labels.delete(labelCommon);
      });
      ev = await expectEvent(chCommon, 'destroyed', path1);
      expect(oldOf(ev)).toBeUndefined();
      ev = await expectEvent(chLabel1, 'updated', path1);
      expect(resourceOf(ev)!.metadata.labels.has(labelCommon)).toBe(false);
      expect(oldOf(ev)!.metadata.labels.has(labelCommon)).toBe(true);
    });
  }

  test('Watch', async ({ st, path, signal }) => {
    const path1 = path('tmp/two');
    const w = eventReader(await st.watch(path1.metadata, { signal }));

    let ev = await w.next();
    expect(ev.type).toBe('destroyed');
    expect(resourceOf(ev)!.metadata.id).toBe(path1.metadata.id);

    await st.create(path1);
    ev = await w.next();
    expect(ev.type).toBe('created');
    expect(str(resourceOf(ev)!)).toBe(str(path1));

    expect(await st.teardown(path1.metadata)).toBe(true);
    ev = await w.next();
    expect(ev.type).toBe('updated');
    expect(resourceOf(ev)!.metadata.phase).toBe('tearingDown');
    expect(str(oldOf(ev)!)).toBe(str(path1));
    expect(oldOf(ev)!.metadata.phase).toBe('running');

    await st.addFinalizer(path1.metadata, 'A');
    ev = await w.next();
    expect(ev.type).toBe('updated');
    expect(resourceOf(ev)!.metadata.finalizers.has('A')).toBe(true);

    await st.removeFinalizer(path1.metadata, 'A');
    ev = await w.next();
    expect(ev.type).toBe('updated');
    expect(resourceOf(ev)!.metadata.finalizers.empty()).toBe(true);

    await st.destroy(path1.metadata);
    ev = await w.next();
    expect(ev.type).toBe('destroyed');
    expect(str(resourceOf(ev)!)).toBe(str(path1));
  });

  test('WatchWithTailEvents', async ({ st, path, signal, opts }) => {
    const path1 = path('res/watch-with-tail-events');
    const w = eventReader(await st.watch(path1.metadata, { signal }));
    await w.next(); // the initial "destroyed"

    await st.create(path1);
    expect(await st.teardown(path1.metadata)).toBe(true);
    await st.addFinalizer(path1.metadata, 'A');
    await st.removeFinalizer(path1.metadata, 'A');
    await st.destroy(path1.metadata);
    const expected = await w.take(5);

    const opening = st.watch(path1.metadata, { signal, tailEvents: 1000 });
    if (!opts.supportsTailEvents) {
      expect(isUnsupported(await failure(opening))).toBe(true);
      return;
    }
    const tail = eventReader(await opening);
    expectAll(await tail.take(expected.length), expected);
  });

  test('WatchWithBookmarks', async ({ st, path, signal }) => {
    const path1 = path('res/watch-with-bookmarks');
    const w = eventReader(await st.watch(path1.metadata, { signal }));

    await st.create(path1);
    expect(await st.teardown(path1.metadata)).toBe(true);
    await st.addFinalizer(path1.metadata, 'A');
    await st.removeFinalizer(path1.metadata, 'A');
    await st.destroy(path1.metadata);

    // the initial "destroyed", then five changes; only the initial one may lack a bookmark
    const numEvents = 6;
    const events = await w.take(numEvents);
    for (const ev of events.slice(1)) expect(ev.bookmark).toBeDefined();

    await st.create(path1);

    for (const [i, ev] of events.entries()) {
      if (!ev.bookmark) continue;
      const resumed = eventReader(await st.watch(path1.metadata, { signal, startFromBookmark: ev.bookmark }));
      for (const want of events.slice(i + 1)) expect(sameEvent(want, await resumed.next())).toBe(true);
      const last = await resumed.next();
      expect(last.type).toBe('created');
      expect(str(resourceOf(last)!)).toBe(str(path1));
      resumed.close();
    }
  });

  for (const aggregated of [false, true])
    for (const bootstrapContents of [false, true])
      test(`WatchKindWithBookmarks aggregated=${aggregated} bootstrapContents=${bootstrapContents}`, async ({
        st,
        path,
        watchKind,
      }) => {
        const res = path(`res/watch-kind-with-bookmarks/${aggregated}/${bootstrapContents}`);
        await st.create(res);

        const w = await watchKind(aggregated, { bootstrapContents, bootstrapBookmark: !bootstrapContents });
        await st.update(res);
        await st.update(res);
        await st.teardown(res.metadata);
        await st.destroy(res.metadata);

        // with contents: created + bootstrapped; without: noop; then four changes
        const numEvents = bootstrapContents ? 6 : 5;
        const events = await w.take(numEvents);
        const firstMarker = events.findIndex((e) => e.type === 'bootstrapped' || e.type === 'noop');
        expect(firstMarker).toBeGreaterThanOrEqual(0);
        for (const ev of events.slice(firstMarker)) expect(ev.bookmark).toBeDefined();

        await st.create(res);

        for (const [i, ev] of events.entries()) {
          if (!ev.bookmark) continue;
          const resumed = await watchKind(aggregated, { startFromBookmark: ev.bookmark });
          for (const want of events.slice(i + 1)) expect(sameEvent(want, await resumed.next())).toBe(true);
          const last = await resumed.next();
          expect(last.type).toBe('created');
          expect(str(resourceOf(last)!)).toBe(str(res));
          resumed.close();
        }

        await st.destroy(res.metadata);
      });
}
