// Long work inside a reconcile (a worker waiting for trustd) that must not outlive the inputs it was
// started from: the controller's next wake-up aborts it, as upstream's worker branch cancels its CSR call
// on an event from EventCh, and is queued again so the loop reconciles with what is current.
import type { ControllerRuntime } from '../../../src/cosi/controller/index.js';

export type Interruptible<T> = { readonly done: true; readonly value: T } | { readonly done: false };

/** untilWokenUp runs `work` until it settles or the controller is woken up, whichever comes first. */
export async function untilWokenUp<T>(
  rt: Pick<ControllerRuntime, 'events' | 'queueReconcile'>,
  signal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<Interruptible<T>> {
  const stop = new AbortController();
  const woken = (async () => {
    for await (const _ of rt.events(stop.signal)) return true;
    return false;
  })();
  const running = work(AbortSignal.any([signal, stop.signal]));
  try {
    const first = await Promise.race([
      running.then((value) => ({ done: true as const, value })),
      woken.then((w) => (w ? { done: false as const } : undefined)),
    ]);
    if (first) return first;
    return { done: true, value: await running }; // `woken` ended only because the run is stopping
  } finally {
    stop.abort();
    await running.catch(() => {});
    // a wake-up taken by the listener above (even one that lost the race to `work`) belongs to the loop
    rt.queueReconcile();
  }
}
