// Controllers of the runtime conformance suite, after upstream's conformance controllers.
import { type Controller, defineController, input, output } from '../../controller/controller.js';
import { type Pointer, pointerString } from '../../resource/kind.js';
import type { LabelQuery } from '../../resource/label-query.js';
import { isNotFound } from '../../state/errors.js';
import { IntResource, SentenceResource, StrResource } from '../resources.js';

const strPointer = (ns: string, id: string): Pointer => StrResource.pointer(id, ns);

/** intToStrController copies IntResources of `src` into StrResources of `dst`, holding a finalizer on each int. */
export function intToStrController(src: string, dst: string): Controller {
  return defineController({
    name: 'IntToStrController',
    inputs: [
      input(IntResource, { namespace: src, kind: 'strong' }),
      input(StrResource, { namespace: dst, kind: 'destroy-ready' }),
    ],
    outputs: [output(StrResource, 'exclusive')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        for (const i of await rt.list(IntResource, { namespace: src })) {
          const out = strPointer(dst, i.metadata.id);
          const fin = pointerString(out);
          if (i.metadata.phase === 'running') {
            if (!i.metadata.finalizers.has(fin)) await rt.addFinalizer(i.metadata, fin);
            await rt.modify(
              StrResource,
              i.metadata.id,
              (s) => {
                s.value = String(i.spec.value);
              },
              { namespace: dst },
            );
            continue;
          }
          let ready = true;
          try {
            ready = await rt.teardown(out);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
          if (!ready) continue; // the destroy-ready input brings us back
          try {
            await rt.destroy(out);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
          await rt.removeFinalizer(i.metadata, fin);
        }
        rt.resetBackoff();
      }
    },
  });
}

/** strToSentenceController declares no inputs: it sets them with updateInputs when it starts. */
export function strToSentenceController(src: string, dst: string): Controller {
  return defineController({
    name: 'StrToSentenceController',
    outputs: [output(SentenceResource, 'exclusive')],
    async run(rt, { signal }) {
      await rt.updateInputs([
        input(StrResource, { namespace: src, kind: 'strong' }),
        input(SentenceResource, { namespace: dst, kind: 'destroy-ready' }),
      ]);
      for await (const _ of rt.events(signal)) {
        for (const s of await rt.list(StrResource, { namespace: src })) {
          const out = SentenceResource.pointer(s.metadata.id, dst);
          const fin = pointerString(out);
          if (s.metadata.phase === 'running') {
            if (!s.metadata.finalizers.has(fin)) await rt.addFinalizer(s.metadata, fin);
            await rt.modify(
              SentenceResource,
              s.metadata.id,
              (spec, md) => {
                md.labels.set('combined', '');
                spec.value = `${s.spec.value} sentence`;
              },
              { namespace: dst },
            );
            continue;
          }
          let ready = true;
          try {
            ready = await rt.teardown(out);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
          if (!ready) continue;
          try {
            await rt.destroy(out);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
          await rt.removeFinalizer(s.metadata, fin);
        }
        rt.resetBackoff();
      }
    },
  });
}

export interface SumSettings {
  readonly name: string;
  readonly src: string;
  readonly dst: string;
  readonly id: string;
  readonly labelQuery?: LabelQuery;
}

/** sumController keeps one IntResource holding the sum of the (matching) ints of `src`. */
export function sumController(s: SumSettings): Controller {
  return defineController({
    name: s.name,
    outputs: [output(IntResource, 'shared')],
    async run(rt, { signal }) {
      await rt.updateInputs([input(IntResource, { namespace: s.src, kind: 'weak' })]);
      for await (const _ of rt.events(signal)) {
        const ints = await rt.list(IntResource, {
          namespace: s.src,
          ...(s.labelQuery ? { labelQueries: [s.labelQuery] } : {}),
        });
        const sum = ints.reduce((acc, i) => acc + i.spec.value, 0);
        await rt.modify(
          IntResource,
          s.id,
          (spec) => {
            spec.value = sum;
          },
          { namespace: s.dst },
        );
        rt.resetBackoff();
      }
    },
  });
}

/**
 * failingController writes IntResource "<n>" = n on its n-th run and then fails, `failures` times;
 * the next run returns, which finishes it for good. `how` picks the failure: a rejected Error or a
 * thrown non-Error value (what a Go panic becomes here).
 */
export function failingController(dst: string, failures: number, how: 'error' | 'panic'): Controller {
  let count = 0;
  return defineController({
    name: how === 'error' ? 'FailingController' : 'PanickingController',
    outputs: [output(IntResource, 'exclusive')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const n = count;
        await rt.modify(
          IntResource,
          String(n),
          (spec) => {
            spec.value = n;
          },
          { namespace: dst },
        );
        count++;
        if (n >= failures) return;
        if (how === 'panic') throw { panic: 'failing here' };
        throw new Error('failing here');
      }
    },
  });
}

/** intDoublerController mirrors ints doubled, garbage-collecting stale outputs with output tracking. */
export function intDoublerController(src: string, dst: string): Controller {
  return defineController({
    name: 'IntDoublerController',
    inputs: [input(IntResource, { namespace: src, kind: 'strong' })],
    outputs: [output(IntResource, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        for (const i of await rt.list(IntResource, { namespace: src }))
          await rt.modify(
            IntResource,
            i.metadata.id,
            (spec) => {
              spec.value = i.spec.value * 2;
            },
            { namespace: dst },
          );
        await rt.cleanupOutputs({ namespace: dst, type: IntResource.type });
      }
    },
  });
}

/** modifyWithResultController checks that modifyWithResult returns what it stored. */
export function modifyWithResultController(src: string, dst: string): Controller {
  return defineController({
    name: 'ModifyWithResultController',
    inputs: [input(StrResource, { namespace: src, kind: 'weak' })],
    outputs: [output(StrResource, 'exclusive')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        for (const s of await rt.list(StrResource, { namespace: src })) {
          const want = `${s.spec.value}-modified`;
          const stored = await rt.modifyWithResult(
            StrResource,
            `${s.metadata.id}-out`,
            (spec) => {
              spec.value = want;
            },
            { namespace: dst },
          );
          const verdict =
            stored.spec.value === want && stored.metadata.version !== undefined ? 'valid' : 'invalid';
          await rt.modify(
            StrResource,
            `${s.metadata.id}-out-modify-result`,
            (spec) => {
              spec.value = `${s.spec.value}-${verdict}`;
            },
            { namespace: dst },
          );
        }
        rt.resetBackoff();
      }
    },
  });
}
