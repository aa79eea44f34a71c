// QControllers of the runtime conformance suite, after upstream's conformance qcontrollers.
import { input, output } from '../../controller/controller.js';
import { RequeueError, requeueAfter, skipReconcile } from '../../controller/errors.js';
import { defineQController, type QController, type QRuntime } from '../../controller/qcontroller.js';
import type { Pointer } from '../../resource/kind.js';
import { isNotFound } from '../../state/errors.js';
import { IntResource, StrResource } from '../resources.js';

/** teardownOutput is the tearing-down branch both int → str QControllers share. */
async function teardownOutput(rt: QRuntime, name: string, input: Pointer, out: Pointer): Promise<void> {
  let ready: boolean;
  try {
    ready = await rt.teardown(out);
  } catch (e) {
    if (isNotFound(e)) return rt.removeFinalizer(input, name);
    throw e;
  }
  if (!ready) return; // the output's destroy-ready map job brings us back
  await rt.destroy(out);
  await rt.removeFinalizer(input, name);
}

/** qIntToStrController converts IntResource to StrResource one item at a time, 4 workers. */
export function qIntToStrController(src: string, dst: string): QController {
  const name = 'QIntToStrController';
  return defineQController({
    name,
    inputs: [
      input(IntResource, { namespace: src, kind: 'q-primary' }),
      input(StrResource, { namespace: dst, kind: 'q-mapped-destroy-ready' }),
    ],
    outputs: [output(StrResource, 'exclusive')],
    concurrency: 4,
    async reconcile(rt, ptr) {
      const i = await rt.getOrNull(IntResource, ptr.id, { namespace: ptr.namespace });
      if (!i) return;
      const out = StrResource.pointer(i.metadata.id, dst);
      if (i.metadata.phase === 'tearingDown') return teardownOutput(rt, name, i.metadata, out);
      await rt.addFinalizer(i.metadata, name);
      await rt.modify(
        StrResource,
        i.metadata.id,
        (s) => {
          s.value = String(i.spec.value);
        },
        { namespace: dst },
      );
    },
    // remap the output to its input, to recheck once the output's finalizers are gone
    mapInput: (_rt, md) => [IntResource.pointer(md.id, src)],
  });
}

/**
 * qFailingController copies StrResources of `src` to `dst`, except that a value "<how>:<n>" makes
 * the first n attempts of that item fail in the named way: fail (reject), panic (throw a
 * non-Error), requeue (RequeueError without cause), requeue-error (with cause); the value is
 * copied only after that. "skip" skips every attempt after writing "skipped".
 */
export function qFailingController(src: string, dst: string): QController {
  const attempts = new Map<string, number>();
  return defineQController({
    name: 'QFailingController',
    inputs: [input(StrResource, { namespace: src, kind: 'q-primary' })],
    outputs: [output(StrResource, 'exclusive')],
    concurrency: 4,
    async reconcile(rt, ptr) {
      const s = await rt.getOrNull(StrResource, ptr.id, { namespace: ptr.namespace });
      if (!s) return;
      const write = (value: string) =>
        rt.modify(
          StrResource,
          s.metadata.id,
          (spec) => {
            spec.value = value;
          },
          { namespace: dst },
        );
      if (s.spec.value === 'skip') {
        await write('skipped');
        throw skipReconcile('skipping as requested');
      }
      const [how, times] = s.spec.value.split(':');
      const key = `${s.metadata.id}/${s.spec.value}`;
      const n = attempts.get(key) ?? 0;
      attempts.set(key, n + 1);
      if (times !== undefined && n < Number(times)) {
        switch (how) {
          case 'fail':
            throw new Error('failing as requested');
          case 'panic':
            throw { panic: 'panicking as requested' };
          case 'requeue':
            throw requeueAfter(2);
          case 'requeue-error':
            throw new RequeueError(2, new Error('requeue with error'));
        }
      }
      await write(s.spec.value);
    },
  });
}

/**
 * qIntToStrSleepingController sleeps `value` ms before writing, on one worker, unless the input
 * starts tearing down: then the sleep is cut short through teardownScope.
 */
export function qIntToStrSleepingController(src: string, dst: string): QController {
  const name = 'QIntToStrSleepingController';
  return defineQController({
    name,
    inputs: [
      input(IntResource, { namespace: src, kind: 'q-primary' }),
      input(StrResource, { namespace: dst, kind: 'q-mapped-destroy-ready' }),
    ],
    outputs: [output(StrResource, 'exclusive')],
    concurrency: 1, // one worker: a sleeping item blocks every other one
    async reconcile(rt, ptr, { signal }) {
      const i = await rt.getOrNull(IntResource, ptr.id, { namespace: ptr.namespace });
      if (!i) return;
      const out = StrResource.pointer(i.metadata.id, dst);
      if (i.metadata.phase === 'tearingDown') return teardownOutput(rt, name, i.metadata, out);
      await rt.addFinalizer(i.metadata, name);
      const scope = await rt.teardownScope(i.metadata, { signal });
      try {
        if (!(await pause(i.spec.value, scope.signal))) return; // interrupted: the teardown event requeues us
      } finally {
        scope.close();
      }
      await rt.modify(
        StrResource,
        i.metadata.id,
        (s) => {
          s.value = String(i.spec.value);
        },
        { namespace: dst },
      );
    },
    mapInput: (_rt, md) => [IntResource.pointer(md.id, src)],
  });
}

/** pause waits ms, or less when the signal aborts (false); it leaves no timer behind. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (slept: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
