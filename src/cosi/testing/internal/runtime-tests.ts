// Runtime conformance: classic controllers and QControllers over any State.
import { expect } from 'vitest';
import { labelEqual, labelExists, labelQuery } from '../../resource/label-query.js';
import { IntResource, newInt, newStr, SentenceResource, StrResource } from '../resources.js';
import {
  failingController,
  intDoublerController,
  intToStrController,
  modifyWithResultController,
  strToSentenceController,
  sumController,
} from './runtime-controllers.js';
import type { DefineRuntimeTest } from './runtime-env.js';
import {
  qFailingController,
  qIntToStrController,
  qIntToStrSleepingController,
} from './runtime-qcontrollers.js';

const ints = (namespace: string) => ({ namespace, type: IntResource.type });
const strs = (namespace: string) => ({ namespace, type: StrResource.type });
const value = (r: { spec: { value: unknown } }) => r.spec.value;

export function runtimeTests(test: DefineRuntimeTest): void {
  test('NoControllers', async ({ start }) => {
    start([]);
  });

  test('IntToStr', async ({ st, ns, start, values, signal }) => {
    const n = ns('default');
    await st.create(newInt(n, 'one', 1));
    start([intToStrController(n, n)], [ints(n), strs(n)]);
    await st.create(newInt(n, 'two', 2));
    await values(StrResource, n, { one: '1', two: '2' }, value);

    const three = newInt(n, 'three', 3);
    await st.create(three);
    await values(StrResource, n, { one: '1', two: '2', three: '3' }, value);

    await st.updateWithConflicts<typeof three>(three.metadata, (r) => {
      r.spec.value = 33;
    });
    await values(StrResource, n, { one: '1', two: '2', three: '33' }, value);

    // the controller holds a finalizer: teardown is not ready until it cleaned up
    expect(await st.teardown(three.metadata)).toBe(false);
    await st.watchFor(three.metadata, { finalizersEmpty: true, signal });
    await values(StrResource, n, { one: '1', two: '2' }, value);
    await st.destroy(three.metadata);
  });

  test('IntToStrToSentence', async ({ st, ns, start, values, until, signal }) => {
    const [i, s, t] = [ns('ints'), ns('strings'), ns('sentences')];
    const one = newInt(i, 'one', 1);
    await st.create(one);
    start(
      [intToStrController(i, s), strToSentenceController(s, t)],
      [ints(i), strs(i), strs(s), { namespace: t, type: SentenceResource.type }],
    );
    await st.create(newInt(i, 'two', 2));
    await values(SentenceResource, t, { one: '1 sentence', two: '2 sentence' }, value);
    await st.create(newInt(i, 'three', 3));
    await values(SentenceResource, t, { one: '1 sentence', two: '2 sentence', three: '3 sentence' }, value);

    const eleven = await st.updateWithConflicts<typeof one>(one.metadata, (r) => {
      r.spec.value = 11;
    });
    expect(eleven.spec.value).toBe(11);
    await values(SentenceResource, t, { one: '11 sentence', two: '2 sentence', three: '3 sentence' }, value);
    await until(SentenceResource, t, (items) => {
      for (const r of items.values()) expect(r.metadata.labels.has('combined')).toBe(true);
    });

    // tearing down the int cascades: sentence, then str, then the int's finalizer
    expect(await st.teardown(one.metadata)).toBe(false);
    await st.watchFor(one.metadata, { finalizersEmpty: true, signal });
    await values(SentenceResource, t, { two: '2 sentence', three: '3 sentence' }, value);
    await st.destroy(one.metadata);
  });

  test('Sum', async ({ st, ns, start, values }) => {
    const [src, dst] = [ns('source'), ns('target')];
    start([sumController({ name: 'SumController', src, dst, id: 'sum' })], [ints(src), ints(dst)]);
    await values(IntResource, dst, { sum: 0 }, value);
    await st.create(newInt(src, 'one', 1));
    await st.create(newInt(src, 'two', 2));
    await values(IntResource, dst, { sum: 3 }, value);
    await st.destroy(IntResource.pointer('one', src));
    await values(IntResource, dst, { sum: 2 }, value);
  });

  test('SumFiltered', async ({ st, ns, start, values }) => {
    const [src, dst] = [ns('source'), ns('target')];
    const onlyApp1 = labelQuery(labelExists('summable'), labelEqual('app', 'app1'));
    start(
      [sumController({ name: 'SumController', src, dst, id: 'sum', labelQuery: onlyApp1 })],
      [ints(src), ints(dst)],
    );
    await values(IntResource, dst, { sum: 0 }, value);

    const one = newInt(src, 'one', 1);
    one.metadata.labels.set('summable', 'true');
    const two = newInt(src, 'two', 2);
    two.metadata.labels.set('summable', 'true');
    two.metadata.labels.set('app', 'app1');
    await st.create(one);
    await st.create(two);
    await values(IntResource, dst, { sum: 2 }, value);

    const three = newInt(src, 'three', 3);
    three.metadata.labels.set('summable', 'yep');
    three.metadata.labels.set('app', 'app1');
    await st.create(three);
    await values(IntResource, dst, { sum: 5 }, value);

    await st.destroy(two.metadata);
    await values(IntResource, dst, { sum: 3 }, value);
  });

  test('CascadingSum', async ({ st, ns, runtime, run, values }) => {
    const [s1, s2, src, dst] = [ns('source1'), ns('source2'), ns('source'), ns('target')];
    const rt = runtime([ints(s1), ints(s2), ints(src), ints(dst)]);
    run(rt);
    // registered while running: each starts at once
    rt.register(sumController({ name: 'SumController1', src: s1, dst: src, id: 'sum1' }));
    rt.register(sumController({ name: 'SumController2', src: s2, dst: src, id: 'sum2' }));
    rt.register(sumController({ name: 'SumController', src, dst, id: 'sum' }));
    await values(IntResource, dst, { sum: 0 }, value);
    await st.create(newInt(s1, 'one', 1));
    await st.create(newInt(s1, 'two', 2));
    await st.create(newInt(s2, 'three', 3));
    await st.create(newInt(s2, 'four', 4));
    await values(IntResource, dst, { sum: 10 }, value);
  });

  for (const how of ['error', 'panic'] as const)
    test(how === 'error' ? 'Failing' : 'Panicking', async ({ ns, start, values }) => {
      const dst = ns('target');
      const rt = start([failingController(dst, 3, how)], [ints(dst)]);
      // three crashes, each followed by a restart; the fourth run returns and is never restarted
      await values(IntResource, dst, { '0': 0, '1': 1, '2': 2, '3': 3 }, value);
      const name = how === 'error' ? 'FailingController' : 'PanickingController';
      expect(rt.metrics().controller_crashes[name]).toBe(3);
    });

  test('IntDoubler', async ({ st, ns, start, values }) => {
    const [src, dst] = [ns('default'), ns('target')];
    await st.create(newInt(src, 'one', 1));
    start([intDoublerController(src, dst)], [ints(src), ints(dst)]);
    await st.create(newInt(src, 'two', 2));
    await values(IntResource, dst, { one: 2, two: 4 }, value);
    const three = newInt(src, 'three', 3);
    await st.create(three);
    await values(IntResource, dst, { one: 2, two: 4, three: 6 }, value);
    // the stale output is destroyed by cleanupOutputs
    await st.destroy(three.metadata);
    await values(IntResource, dst, { one: 2, two: 4 }, value);
  });

  test('ModifyWithResult', async ({ st, ns, start, values }) => {
    const [src, dst] = [ns('modify-with-result-source'), ns('modify-with-result-target')];
    start([modifyWithResultController(src, dst)], [strs(src), strs(dst)]);
    await st.create(newStr(src, 'id', 'val-1'));
    await values(
      StrResource,
      dst,
      { 'id-out': 'val-1-modified', 'id-out-modify-result': 'val-1-valid' },
      value,
    );
    await st.updateWithConflicts<ReturnType<typeof newStr>>(StrResource.pointer('id', src), (r) => {
      r.spec.value = 'val-2';
    });
    await values(
      StrResource,
      dst,
      { 'id-out': 'val-2-modified', 'id-out-modify-result': 'val-2-valid' },
      value,
    );
  });

  test('Metrics', async ({ st, ns, start, values }) => {
    const [a, b, c, d] = [ns('a'), ns('b'), ns('c'), ns('d')];
    const rt = start(
      [sumController({ name: 'SumController', src: a, dst: b, id: 'sum' }), qIntToStrController(c, d)],
      [ints(a), ints(b), ints(c), strs(d)],
    );
    for (const id of ['x', 'y']) {
      await st.create(newInt(a, id, 1));
      await st.create(newInt(c, id, 2));
    }
    await values(IntResource, b, { sum: 2 }, value);
    await values(StrResource, d, { x: '2', y: '2' }, value);
    const m = rt.metrics();
    expect(m.controller_wakeups.SumController).toBeGreaterThanOrEqual(1);
    expect(m.controller_reads.SumController).toBeGreaterThanOrEqual(1);
    expect(m.controller_writes.SumController).toBeGreaterThanOrEqual(1);
    expect(m.controller_crashes.SumController ?? 0).toBe(0);
    expect(m.controller_reads.QIntToStrController).toBeGreaterThanOrEqual(2);
    expect(m.controller_writes.QIntToStrController).toBeGreaterThanOrEqual(2);
    expect(m.qcontroller_processed.QIntToStrController).toBeGreaterThanOrEqual(2);
    expect(m.qcontroller_mapped_in.QIntToStrController ?? 0).toBe(0); // no output became destroy-ready
  });

  test('QIntToStr', async ({ st, ns, start, values, signal }) => {
    const [src, dst] = [ns('ints'), ns('strings')];
    await st.create(newInt(src, 'one', 1));
    start([qIntToStrController(src, dst)], [ints(src), strs(dst)]);
    await st.create(newInt(src, 'two', 2));
    await values(StrResource, dst, { one: '1', two: '2' }, value);

    const three = newInt(src, 'three', 3);
    await st.create(three);
    await values(StrResource, dst, { one: '1', two: '2', three: '3' }, value);
    await st.updateWithConflicts<typeof three>(three.metadata, (r) => {
      r.spec.value = 33;
    });
    await values(StrResource, dst, { one: '1', two: '2', three: '33' }, value);

    // an output finalizer holds the teardown until it is removed
    await st.addFinalizer(StrResource.pointer('three', dst), 'hold');
    expect(await st.teardown(three.metadata)).toBe(false);
    await st.watchFor(StrResource.pointer('three', dst), { phases: ['tearingDown'], signal });
    await st.removeFinalizer(StrResource.pointer('three', dst), 'hold');
    await st.watchFor(three.metadata, { finalizersEmpty: true, signal });
    await values(StrResource, dst, { one: '1', two: '2' }, value);
    await st.destroy(three.metadata);
  });

  test('QFailing', async ({ st, ns, start, values }) => {
    const [src, dst] = [ns('source'), ns('target')];
    const rt = start([qFailingController(src, dst)], [strs(src), strs(dst)]);
    const items = {
      ok: 'plain',
      failing: 'fail:2',
      panicking: 'panic:2',
      requeued: 'requeue:2',
      'requeued-with-error': 'requeue-error:2',
      skipped: 'skip',
    };
    for (const [id, v] of Object.entries(items)) await st.create(newStr(src, id, v));
    // each item fails (or requeues) on its own, with its own backoff, and then succeeds
    const want: Record<string, string> = { ...items, skipped: 'skipped' };
    await values(StrResource, dst, want, value);
    // a change of a failed item is picked up like any other
    await st.updateWithConflicts<ReturnType<typeof newStr>>(StrResource.pointer('failing', src), (r) => {
      r.spec.value = 'fixed';
    });
    await values(StrResource, dst, { ...want, failing: 'fixed' }, value);
    const m = rt.metrics();
    expect(m.qcontroller_crashes.QFailingController).toBeGreaterThanOrEqual(6); // fail, panic, requeue-error: 2 each
    expect(m.qcontroller_requeues.QFailingController).toBeGreaterThanOrEqual(2);
    expect(m.qcontroller_skips.QFailingController).toBeGreaterThanOrEqual(1);
  });

  test('QIntToStrSleeping', async ({ st, ns, start, values, signal }) => {
    const [src, dst] = [ns('ints'), ns('strings')];
    start([qIntToStrSleepingController(src, dst)], [ints(src), strs(dst)]);
    // the only worker starts a reconcile that would sleep for an hour
    const slow = newInt(src, 'slow', 3_600_000);
    await st.create(slow);
    await st.watchFor(slow.metadata, {
      signal,
      condition: (r) => r.metadata.finalizers.has('QIntToStrSleepingController'),
    });
    await st.create(newInt(src, 'fast', 0));
    // tearing the slow input down cuts its sleep short, which frees the worker for the fast one
    expect(await st.teardown(slow.metadata)).toBe(false);
    await values(StrResource, dst, { fast: '0' }, value);
    await st.watchFor(slow.metadata, { finalizersEmpty: true, signal });
    await st.destroy(slow.metadata);
  });
}
