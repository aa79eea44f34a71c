// Running the checks, as upstream's check.Wait: one after another, each until its condition holds, its
// state reported at its start, every 100 ms while it runs and once more when it ends; the first failure
// (the end of the whole wait) ends the run.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Condition } from './condition.js';
import type { Reporter } from './reporter.js';

/** How often a running condition's state is looked at (upstream's updateInterval). */
export const UPDATE_INTERVAL_MS = 100;

export async function waitForConditions(
  conditions: Iterable<() => Condition>,
  reporter: Reporter,
  signal: AbortSignal,
): Promise<void> {
  for (const make of conditions) {
    signal.throwIfAborted();
    const condition = make();
    let settled = false;
    const done = condition.wait(signal).finally(() => {
      settled = true;
    });
    done.catch(() => {}); // awaited below; this only keeps a failure during a report from being unhandled
    await reporter.update(condition);
    while (!settled) {
      await Promise.race([done.catch(() => {}), sleep(UPDATE_INTERVAL_MS)]);
      await reporter.update(condition);
    }
    // the last state, even when the condition settled while its first state was being sent
    await reporter.update(condition);
    await done;
  }
}
