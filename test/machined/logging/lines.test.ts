import { describe, expect, it } from 'vitest';
import { pumpLines, readLines } from '../../../src/machined/logging/lines.js';
import { LogRing } from '../../../src/machined/logging/ring.js';

describe('pumpLines', () => {
  it('copies a line source (a kmsg reader, say) into a ring', async () => {
    async function* kmsg() {
      yield '<6>[    0.000000] Linux version 6.18';
      yield '<6>[    0.100000] Command line: console=ttyS0\n';
    }
    const ring = new LogRing();
    await pumpLines(kmsg(), ring, { signal: new AbortController().signal });
    const lines: string[] = [];
    for await (const l of readLines(ring, { signal: new AbortController().signal })) lines.push(l);
    expect(lines).toEqual([
      '<6>[    0.000000] Linux version 6.18',
      '<6>[    0.100000] Command line: console=ttyS0',
    ]);
  });

  it('stops on abort even while the source waits, and closes the source', async () => {
    let closed = false;
    let pulls = 0;
    // a source like /dev/kmsg: one line, then nothing until the end of time
    const source: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          pulls++ === 0
            ? Promise.resolve({ done: false, value: 'first' })
            : new Promise<IteratorResult<string>>(() => {}),
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const ring = new LogRing();
    const ac = new AbortController();
    const done = pumpLines(source, ring, { signal: ac.signal });
    for await (const _ of ring.read({ signal: ac.signal, follow: true })) break;
    ac.abort();
    await done;
    expect(closed).toBe(true);
    expect(ring.slice().toString()).toBe('first\n');
  });
});
