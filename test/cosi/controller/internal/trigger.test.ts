import { describe, expect, it } from 'vitest';
import { Trigger } from '../../../../src/cosi/controller/internal/trigger.js';

describe('Trigger', () => {
  it('coalesces fires while one is pending', async () => {
    const t = new Trigger();
    expect(t.fire()).toBe(true);
    expect(t.fire()).toBe(false);
    expect(t.fire()).toBe(false);
    const s = new AbortController().signal;
    expect(await t.wait(s)).toBe(true);
    expect(t.pending).toBe(false);
    expect(t.fire()).toBe(true);
  });

  it('hands a fire straight to a waiter', async () => {
    const t = new Trigger();
    const s = new AbortController().signal;
    const waiting = t.wait(s);
    expect(t.fire()).toBe(true);
    expect(await waiting).toBe(true);
    expect(t.pending).toBe(false);
  });

  it('resolves false on abort of any signal, and a later fire is kept for the next waiter', async () => {
    const t = new Trigger();
    const a = new AbortController();
    const b = new AbortController();
    const waiting = t.wait(a.signal, b.signal);
    b.abort();
    expect(await waiting).toBe(false);
    expect(t.fire()).toBe(true);
    expect(t.pending).toBe(true);
  });
});
