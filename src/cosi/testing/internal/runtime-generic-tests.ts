// Runtime conformance: the generic controllers (transform, qtransform, cleanup, destroy) over any State.
import { expect } from 'vitest';
import { cleanupController, combine, hasNoOutputs, removeOutputs } from '../../controller/generic/cleanup.js';
import { destroyController } from '../../controller/generic/destroy.js';
import {
  destroyOutput,
  mappedInput,
  mapperSameID,
  qtransformController,
} from '../../controller/generic/qtransform.js';
import { transformController } from '../../controller/generic/transform.js';
import { labelEqual, labelQuery } from '../../resource/label-query.js';
import { IntResource, newInt, newSentence, newStr, SentenceResource, StrResource } from '../resources.js';
import type { DefineRuntimeTest } from './runtime-env.js';

const value = (r: { spec: { value: unknown } }) => r.spec.value;
const kind = (namespace: string, type: { type: string }) => ({ namespace, type: type.type });
type Int = ReturnType<typeof newInt>;

export function runtimeGenericTests(test: DefineRuntimeTest): void {
  test('TransformWithInputFinalizers', async ({ st, ns, start, values, until, signal }) => {
    const [src, dst] = [ns('ints'), ns('strings')];
    const name = 'TransformIntToStrController';
    start(
      [
        transformController({
          name,
          input: IntResource,
          output: StrResource,
          inputNamespace: src,
          outputNamespace: dst,
          map: (i) => `str-${i.metadata.id}`,
          transform: (_rt, i, out) => {
            out.spec.value = String(i.spec.value);
          },
          inputFinalizers: true,
          finalizerRemoval: () => {},
        }),
      ],
      [kind(src, IntResource), kind(dst, StrResource)],
    );
    await st.create(newInt(src, '1', 1));
    await st.create(newInt(src, '2', 2));
    await values(StrResource, dst, { 'str-1': '1', 'str-2': '2' }, value);
    await until(StrResource, dst, (items) => {
      for (const r of items.values()) expect(r.metadata.owner).toBe(name);
    });
    await st.updateWithConflicts<Int>(IntResource.pointer('2', src), (r) => {
      r.spec.value = 22;
    });
    await values(StrResource, dst, { 'str-1': '1', 'str-2': '22' }, value);

    // someone depends on str-2: tearing its input down leaves str-2 tearing down until released
    await st.addFinalizer(StrResource.pointer('str-2', dst), 'someone');
    const two = IntResource.pointer('2', src);
    await st.watchFor(two, { signal, condition: (r) => r.metadata.finalizers.has(name) });
    expect(await st.teardown(two)).toBe(false);
    await st.watchFor(StrResource.pointer('str-2', dst), { phases: ['tearingDown'], signal });
    await st.removeFinalizer(StrResource.pointer('str-2', dst), 'someone');
    await st.watchFor(two, { finalizersEmpty: true, signal });
    await values(StrResource, dst, { 'str-1': '1' }, value);
    await st.destroy(two);
  });

  test('TransformRecreatesOutputs', async ({ st, ns, start, values }) => {
    const [src, dst] = [ns('ints'), ns('strings')];
    start(
      [
        transformController({
          name: 'TransformIntToStrController',
          input: IntResource,
          output: StrResource,
          inputNamespace: src,
          outputNamespace: dst,
          mapOptional: (i) => (i.spec.value >= 0 ? i.metadata.id : undefined),
          transform: (_rt, i, out) => {
            out.spec.value = `v${i.spec.value}`;
          },
        }),
      ],
      [kind(src, IntResource), kind(dst, StrResource)],
    );
    await st.create(newInt(src, 'a', 1));
    await st.create(newInt(src, 'b', -1)); // mapped to nothing
    await values(StrResource, dst, { a: 'v1' }, value);
    // without input finalizers an input can go at once; its output is then torn down and destroyed
    await st.destroy(IntResource.pointer('a', src));
    await values(StrResource, dst, {}, value);
    await st.create(newInt(src, 'a', 2));
    await values(StrResource, dst, { a: 'v2' }, value);
  });

  test('QTransform', async ({ st, ns, start, values, signal }) => {
    const [src, aux, dst] = [ns('ints'), ns('sentences'), ns('strings')];
    const name = 'QTransformIntToStrController';
    start(
      [
        qtransformController({
          name,
          input: IntResource,
          output: StrResource,
          inputNamespace: src,
          outputNamespace: dst,
          map: (i) => i.metadata.id,
          unmap: (o) => o.metadata.id,
          transform: async (rt, i, out) => {
            if (i.spec.value < 0) throw destroyOutput();
            const extra = await rt.getOrNull(SentenceResource, i.metadata.id, { namespace: aux });
            out.spec.value = extra ? `${i.spec.value}-${extra.spec.value}` : String(i.spec.value);
          },
          extraMappedInputs: [
            mappedInput(SentenceResource, mapperSameID(kind(src, IntResource)), { namespace: aux }),
          ],
          concurrency: 2,
        }),
      ],
      [kind(src, IntResource), kind(aux, SentenceResource), kind(dst, StrResource)],
    );
    await st.create(newInt(src, 'a', 1));
    await st.create(newInt(src, 'b', 2));
    await values(StrResource, dst, { a: '1', b: '2' }, value);

    // a change of the mapped input re-reconciles the matching primary
    await st.create(newSentence(aux, 'a', 'x'));
    await values(StrResource, dst, { a: '1-x', b: '2' }, value);
    await st.destroy(SentenceResource.pointer('a', aux));
    await values(StrResource, dst, { a: '1', b: '2' }, value);

    // the transform may ask for its output to go
    await st.updateWithConflicts<Int>(IntResource.pointer('b', src), (r) => {
      r.spec.value = -1;
    });
    await values(StrResource, dst, { a: '1' }, value);

    // teardown: the output goes first, then the input's finalizer
    const a = IntResource.pointer('a', src);
    await st.watchFor(a, { signal, condition: (r) => r.metadata.finalizers.has(name) });
    expect(await st.teardown(a)).toBe(false);
    await st.watchFor(a, { finalizersEmpty: true, signal });
    await values(StrResource, dst, {}, value);
    await st.destroy(a);
  });

  test('QTransformIgnoreTeardownWhile', async ({ st, ns, start, values, signal }) => {
    const [src, dst] = [ns('ints'), ns('strings')];
    start(
      [
        qtransformController({
          name: 'QTransformIntToStrController',
          input: IntResource,
          output: StrResource,
          inputNamespace: src,
          outputNamespace: dst,
          map: (i) => i.metadata.id,
          unmap: (o) => o.metadata.id,
          transform: (_rt, i, out) => {
            out.spec.value = String(i.spec.value);
          },
          ignoreTeardownWhile: ['hold'],
        }),
      ],
      [kind(src, IntResource), kind(dst, StrResource)],
    );
    const c = newInt(src, 'c', 1);
    await st.create(c);
    await values(StrResource, dst, { c: '1' }, value);
    await st.addFinalizer(c.metadata, 'hold');
    await st.teardown(c.metadata);
    // while 'hold' remains the tearing-down input is still transformed like a running one
    await st.updateWithConflicts<Int>(
      c.metadata,
      (r) => {
        r.spec.value = 2;
      },
      { expectedPhase: 'tearingDown' },
    );
    await values(StrResource, dst, { c: '2' }, value);
    await st.removeFinalizer(c.metadata, 'hold');
    await values(StrResource, dst, {}, value);
    await st.watchFor(c.metadata, { finalizersEmpty: true, signal });
    await st.destroy(c.metadata);
  });

  test('Cleanup', async ({ st, ns, start, values, signal }) => {
    const [src, outs, waits] = [ns('ints'), ns('strings'), ns('sentences')];
    const name = 'CleanupIntsController';
    const byInt = (i: { metadata: { id: string } }) => ({
      labelQueries: [labelQuery(labelEqual('int', i.metadata.id))],
    });
    start(
      [
        cleanupController({
          name,
          input: IntResource,
          inputNamespace: src,
          handler: combine(
            removeOutputs(StrResource, byInt, { namespace: outs }),
            hasNoOutputs(SentenceResource, byInt, { namespace: waits }),
          ),
        }),
      ],
      [kind(src, IntResource), kind(outs, StrResource), kind(waits, SentenceResource)],
    );
    const x = newInt(src, 'x', 1);
    await st.create(x);
    await st.watchFor(x.metadata, { signal, condition: (r) => r.metadata.finalizers.has(name) });

    const labelled = (r: ReturnType<typeof newStr> | ReturnType<typeof newSentence>) => {
      r.metadata.labels.set('int', 'x');
      return r;
    };
    await st.create(labelled(newStr(outs, 's1', 'a')));
    await st.create(labelled(newStr(outs, 's2', 'b')));
    await st.create(newStr(outs, 'other', 'c'));
    const blocker = labelled(newSentence(waits, 'w', 'blocks'));
    await st.create(blocker);

    await st.teardown(x.metadata);
    // the user-owned, matching strings are removed; the rest stays
    await values(StrResource, outs, { other: 'c' }, value);
    // the sentence still matches, so the finalizer stays until it is gone
    await st.destroy(blocker.metadata);
    await st.watchFor(x.metadata, { finalizersEmpty: true, signal });
    await st.destroy(x.metadata);
  });

  test('Destroy', async ({ st, ns, start, values, signal }) => {
    const n = ns('ints');
    start([destroyController(IntResource, { namespace: n, concurrency: 2 })], [kind(n, IntResource)]);
    await st.create(newInt(n, 'kept', 0));
    const free = newInt(n, 'free', 1);
    const held = newInt(n, 'held', 2);
    await st.create(free);
    await st.create(held);
    await st.addFinalizer(held.metadata, 'someone');

    // user-owned and tearing down without finalizers: destroyed for the user
    expect(await st.teardown(free.metadata)).toBe(true);
    expect(await st.teardown(held.metadata)).toBe(false);
    await values(IntResource, n, { kept: 0, held: 2 }, value);
    await st.removeFinalizer(held.metadata, 'someone');
    await values(IntResource, n, { kept: 0 }, value);
    await st.watchFor(IntResource.pointer('kept', n), { signal, phases: ['running'] });
  });
}
