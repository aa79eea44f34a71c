import { describe, expect, it } from 'vitest';
import { LogRing } from '../../../src/machined/logging/ring.js';
import { inProcessRunner } from '../../../src/machined/services/in-process-runner.js';

const ctx = (signal: AbortSignal) => ({ signal, log: new LogRing(), sink: () => {} });

describe('inProcessRunner', () => {
  it('turns a synchronous throw and an async rejection into failures', async () => {
    const sync = await inProcessRunner('sync', () => {
      throw new Error('sync boom');
    }).run(ctx(new AbortController().signal));
    expect(sync.type === 'failure' && sync.error.message).toBe('sync boom');
    const later = await inProcessRunner('async', async () => {
      await Promise.resolve();
      throw 'not even an Error';
    }).run(ctx(new AbortController().signal));
    expect(later.type === 'failure' && later.error.message).toBe('not even an Error');
  });

  it('reports a return as success and a return after stop as stopped', async () => {
    expect(await inProcessRunner('ok', () => {}).run(ctx(new AbortController().signal))).toEqual({
      type: 'success',
    });
    const ac = new AbortController();
    const run = inProcessRunner(
      'server',
      ({ signal }) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
    ).run(ctx(ac.signal));
    ac.abort();
    expect(await run).toEqual({ type: 'stopped' });
  });

  it('abandons a function that ignores its stop request after the grace period', async () => {
    const ac = new AbortController();
    const c = ctx(ac.signal);
    const run = inProcessRunner('stubborn', () => new Promise<void>(() => {}), {
      gracefulShutdownTimeoutMs: 10,
    }).run(c);
    ac.abort();
    expect(await run).toEqual({ type: 'stopped' });
    expect(c.log.slice().toString()).toContain('ignored its stop request');
  });
});
