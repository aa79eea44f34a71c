// machined's listener for a quiet API trims only once the resident set has grown enough since the last trim.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { quietTrim } from '../../../src/machined/node/quiet-trim.js';

const MiB = 1024 * 1024;

/** a process whose resident set the test sets, and a trim that brings it down to `to` */
function fakeProcess(start: number) {
  let rss = start;
  const trims: number[] = [];
  let to = start;
  return {
    set: (n: number) => {
      rss = n;
    },
    trimTo: (n: number) => {
      to = n;
    },
    trims,
    resident: () => rss,
    trim: async () => {
      trims.push(rss);
      const before = rss;
      rss = to;
      return { residentBefore: before, residentAfter: rss };
    },
  };
}

describe('quietTrim', () => {
  it('trims when the resident set grew by the threshold since it was made, and logs it', async () => {
    const p = fakeProcess(100 * MiB);
    const lines: string[] = [];
    const onQuiet = quietTrim({
      growth: 8 * MiB,
      resident: p.resident,
      trim: p.trim,
      log: (l) => lines.push(l),
    });
    p.set(107 * MiB);
    onQuiet();
    await sleep(0);
    expect(p.trims).toEqual([]);
    p.set(121 * MiB);
    p.trimTo(102 * MiB);
    onQuiet();
    await sleep(0);
    expect(p.trims).toEqual([121 * MiB]);
    expect(lines).toEqual(["memory after the API's clients returned: resident 121.0 → 102.0 MiB"]);
  });

  it('measures growth from where the last trim left the process', async () => {
    const p = fakeProcess(100 * MiB);
    const onQuiet = quietTrim({ growth: 8 * MiB, resident: p.resident, trim: p.trim });
    p.set(120 * MiB);
    p.trimTo(90 * MiB);
    onQuiet();
    await sleep(0);
    // 99 is below the 100 it was made at plus 8, but 9 above the 90 the trim left
    p.set(99 * MiB);
    onQuiet();
    await sleep(0);
    expect(p.trims).toEqual([120 * MiB, 99 * MiB]);
  });

  it('runs one trim at a time', async () => {
    let release: () => void = () => {};
    let calls = 0;
    let rss = 0;
    const onQuiet = quietTrim({
      growth: 1,
      resident: () => rss,
      trim: () => {
        calls++;
        return new Promise((ok) => {
          release = () => ok({ residentBefore: 10 * MiB, residentAfter: 0 });
        });
      },
    });
    rss = 10 * MiB;
    onQuiet();
    onQuiet();
    expect(calls).toBe(1);
    release();
    await sleep(0);
    rss = 10 * MiB;
    onQuiet();
    expect(calls).toBe(2);
  });

  it('logs a failed trim and tries again at the next quiet moment', async () => {
    const lines: string[] = [];
    let fail = true;
    let calls = 0;
    let rss = 0;
    const onQuiet = quietTrim({
      growth: 1,
      resident: () => rss,
      trim: async () => {
        calls++;
        if (fail) throw new Error('no malloc_trim here');
        return { residentBefore: 10 * MiB, residentAfter: 5 * MiB };
      },
      log: (l) => lines.push(l),
    });
    rss = 10 * MiB;
    onQuiet();
    await sleep(0);
    fail = false;
    onQuiet();
    await sleep(0);
    expect(calls).toBe(2);
    expect(lines[0]).toBe("could not return the API clients' memory: no malloc_trim here");
  });
});
