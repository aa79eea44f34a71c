import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/machined/logging/lines.js';
import { LogRing } from '../../../src/machined/logging/ring.js';

describe('readLines', () => {
  it('yields what a ring holds line by line, a last line without newline included', async () => {
    const ring = new LogRing();
    ring.write('<6>[    0.000000] Linux version 6.1\n<6>[    0.100000] Command');
    ring.write(' line: console=ttyS0\nlast');
    const lines: string[] = [];
    for await (const l of readLines(ring, { signal: new AbortController().signal })) lines.push(l);
    expect(lines).toEqual([
      '<6>[    0.000000] Linux version 6.1',
      '<6>[    0.100000] Command line: console=ttyS0',
      'last',
    ]);
  });

  it('while following, holds a partial line back until its newline is written', async () => {
    const ring = new LogRing();
    const ac = new AbortController();
    ring.write('one\ntw');
    const seen: string[] = [];
    const reading = (async () => {
      for await (const l of readLines(ring, { signal: ac.signal, follow: true })) {
        seen.push(l);
        if (l === 'two') ac.abort();
      }
    })();
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['one']);
    ring.write('o\n');
    await reading;
    expect(seen).toEqual(['one', 'two']);
  });
});
