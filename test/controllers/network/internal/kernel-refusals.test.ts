// The refusal bookkeeping of the spec controllers, on a hand-moved clock: backoff, spec changes, churn.
import { describe, expect, it } from 'vitest';
import { refusals } from '../../../../controllers/network/internal/kernel-refusals.js';
import type { ControllerRuntime, LogFields } from '../../../../src/cosi/controller/index.js';
import { SysError } from '../../../../src/sys/errno.js';

function setup() {
  let t = 0;
  const logs: { level: string; msg: string; fields?: LogFields }[] = [];
  const log = (level: string) => (msg: string, fields?: LogFields) =>
    logs.push({ level, msg, ...(fields ? { fields } : {}) });
  const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const rt = { queueReconcile: () => {} } as unknown as ControllerRuntime;
  const r = refusals(rt, logger, { initialMs: 100, maxMs: 400, now: () => t });
  return { r, logs, advance: (ms: number) => (t += ms) };
}

describe('refusals', () => {
  it('backs off a refused spec, doubling up to the cap, and logs it as an error once', () => {
    const { r, logs, advance } = setup();
    const eexist = new SysError('addRoute', 17, ['default']);
    r.refused('a', '1', 'route a', eexist);
    expect(r.due('a', '1')).toBe(false);
    expect(r.due('b', '1')).toBe(true);
    advance(100);
    expect(r.due('a', '1')).toBe(true);
    r.refused('a', '1', 'route a', eexist);
    advance(150);
    expect(r.due('a', '1')).toBe(false); // 200 ms now
    advance(50);
    r.refused('a', '1', 'route a', eexist);
    r.refused('a', '1', 'route a', eexist);
    advance(399);
    expect(r.due('a', '1')).toBe(false);
    advance(1);
    expect(r.due('a', '1')).toBe(true); // capped at 400 ms
    expect(logs.filter((l) => l.level === 'error')).toHaveLength(1);
    expect(logs[0]?.fields?.errno).toBe('EEXIST');
    r.arm();
    r.close();
  });

  it('retries a changed spec at once, and forgets one that applied', () => {
    const { r, logs } = setup();
    r.refused('a', '1', 'route a', new Error('no'));
    expect(r.due('a', '2')).toBe(true);
    r.applied('a', 'route a');
    expect(r.size).toBe(0);
    expect(logs.at(-1)?.level).toBe('info');
  });

  it('turns three replacements in a row into a refusal', () => {
    const { r } = setup();
    r.replaced('a', '1', 'route a');
    r.replaced('a', '1', 'route a');
    expect(r.due('a', '1')).toBe(true);
    r.replaced('a', '1', 'route a');
    expect(r.due('a', '1')).toBe(false);
    r.replaced('b', '1', 'route b');
    r.applied('b', 'route b'); // kept once: the count starts over
    r.replaced('b', '1', 'route b');
    r.replaced('b', '1', 'route b');
    expect(r.due('b', '1')).toBe(true);
  });
});
