// settled: whether a promise has resolved after a few turns of the event loop, for tests of turn order.
import { setImmediate as immediate } from 'node:timers/promises';

/** settled tells, after a few turns of the loop, whether the promise has resolved */
export async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  for (let i = 0; i < 5; i++) await immediate();
  return done;
}
