import { describe, expect, it } from 'vitest';
import { powerDown } from '../../src/machined/power-down.js';
import { runShutdownHooks } from '../../src/machined/shutdown.js';

describe('orderly shutdown hooks', () => {
  it('run in order, one at a time; a failing hook does not stop the others', async () => {
    const seen: string[] = [];
    const log: string[] = [];
    await runShutdownHooks(
      'poweroff',
      [
        {
          name: 'a',
          run: async () => {
            await new Promise((r) => setTimeout(r, 5));
            seen.push('a');
          },
        },
        {
          name: 'b',
          run: () => {
            throw new Error('b broke');
          },
        },
        { name: 'c', run: () => void seen.push('c') },
      ],
      { log: (l) => log.push(l) },
    );
    expect(seen).toEqual(['a', 'c']);
    expect(log).toEqual([
      'shutdown (poweroff): 3 hook(s)',
      'shutdown hook a (1/3): done',
      'shutdown hook b (2/3): failed: b broke',
      'shutdown hook c (3/3): done',
    ]);
  });

  it('abandons a hook that hangs past its bound and aborts its signal', async () => {
    let aborted: unknown;
    const log: string[] = [];
    await runShutdownHooks(
      'reboot',
      [
        {
          name: 'stuck',
          run: ({ signal }) =>
            new Promise<void>(() => {
              signal.addEventListener('abort', () => {
                aborted = signal.reason;
              });
            }),
        },
        { name: 'next', run: () => {} },
      ],
      { log: (l) => log.push(l), hookTimeoutMs: 20 },
    );
    expect((aborted as Error).message).toBe('shutdown hook stuck timed out');
    expect(log.slice(1)).toEqual(['shutdown hook stuck (1/2): timeout', 'shutdown hook next (2/2): done']);
  });

  it('power-down refuses to run outside PID 1 (kill(-1) would reach the whole namespace)', async () => {
    await expect(powerDown('poweroff', { log: () => {} })).rejects.toThrow(/refusing to run outside PID 1/);
  });
});
