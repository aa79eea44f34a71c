// The refusal bookkeeping of the spec controllers, on a hand-moved clock: backoff, spec changes, churn,
// and the KernelRefusal statuses it publishes (written when changed, destroyed once applied or gone).
import { describe, expect, it } from 'vitest';
import { refusals } from '../../../../controllers/network/internal/kernel-refusals.js';
import { KernelRefusal, type KernelRefusalSpec, LinkSpec } from '../../../../resources/network/index.js';
import type { ControllerRuntime, LogFields } from '../../../../src/cosi/controller/index.js';
import type { Pointer } from '../../../../src/cosi/resource/kind.js';
import { StateError } from '../../../../src/cosi/state/errors.js';
import { SysError } from '../../../../src/sys/errno.js';

const EPOCH = Date.UTC(2026, 0, 1);

/** setup gives refusals over a clock moved by hand and a runtime whose KernelRefusals live in `store`. */
function setup(store = new Map<string, KernelRefusalSpec>()) {
  let t = 0;
  let writes = 0;
  const logs: { level: string; msg: string; fields?: LogFields }[] = [];
  const log = (level: string) => (msg: string, fields?: LogFields) =>
    logs.push({ level, msg, ...(fields ? { fields } : {}) });
  const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const rt = {
    queueReconcile: () => {},
    list: async () => [...store].map(([id, spec]) => KernelRefusal.new('network', id, spec)),
    modify: async (_: unknown, id: string, fn: (s: KernelRefusalSpec) => KernelRefusalSpec) => {
      writes++;
      store.set(id, fn(store.get(id) ?? KernelRefusal.codec.empty()));
    },
    destroy: async (p: Pointer) => {
      writes++;
      if (!store.delete(p.id)) throw new StateError('not-found', `${p.id} not found`, p);
    },
  } as unknown as ControllerRuntime;
  const r = refusals(
    rt,
    logger,
    { kind: 'link', type: LinkSpec.type },
    { initialMs: 100, maxMs: 400, now: () => t, clock: () => EPOCH + t },
  );
  return { r, logs, store, writes: () => writes, advance: (ms: number) => (t += ms) };
}

describe('refusals', () => {
  it('backs off a refused spec, doubling up to the cap, and logs it as an error once', async () => {
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
    await r.flush();
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

describe('refusals: the KernelRefusal statuses', () => {
  const einval = new SysError('setMTU', 22, ['lm0']);

  it('publishes a refusal with its errno, counts attempts from its first time, and destroys it once applied', async () => {
    const { r, store, writes, advance } = setup();
    advance(5);
    r.refused('lm0', '1', 'link "lm0"', einval);
    await r.flush();
    expect(store.get('link/lm0')).toEqual({
      specType: 'LinkSpecs.net.talos.dev',
      specID: 'lm0',
      errno: 'EINVAL',
      message: 'setMTU("lm0"): EINVAL (invalid argument)',
      attempts: 1,
      since: EPOCH + 5,
      nextRetry: EPOCH + 105,
    });
    const w = writes();
    await r.flush(); // nothing changed: nothing written
    expect(writes()).toBe(w);

    advance(100);
    r.refused('lm0', '1', 'link "lm0"', einval);
    await r.flush();
    expect(store.get('link/lm0')).toMatchObject({ attempts: 2, since: EPOCH + 5, nextRetry: EPOCH + 305 });

    r.refused('lm0', '2', 'link "lm0"', einval); // a new version of the spec starts over
    await r.flush();
    expect(store.get('link/lm0')).toMatchObject({ attempts: 1, since: EPOCH + 105 });

    r.applied('lm0', 'link "lm0"');
    await r.flush();
    expect(store.size).toBe(0);
  });

  it('publishes the churn case with no errno, and destroys the refusal of a spec that went away', async () => {
    const { r, store } = setup();
    for (let i = 0; i < 3; i++) r.replaced('b0', '1', 'link "b0"');
    await r.flush();
    expect(store.get('link/b0')).toMatchObject({ errno: '', attempts: 1 });
    expect(store.get('link/b0')?.message).toContain('replaced 3 times in a row');
    r.retain(new Set());
    await r.flush();
    expect(store.has('link/b0')).toBe(false);
  });

  it('destroys what a previous run of its controller left, and never another kind', async () => {
    const left = KernelRefusal.codec.empty();
    const store = new Map([
      ['link/old0', { ...left, specID: 'old0' }],
      ['link/kept0', { ...left, specID: 'kept0' }],
      ['address/eth0/10.0.0.1/24', { ...left, specID: 'eth0/10.0.0.1/24' }],
    ]);
    const { r } = setup(store);
    r.refused('kept0', '1', 'link "kept0"', einval);
    await r.flush();
    expect([...store.keys()]).toEqual(['link/kept0', 'address/eth0/10.0.0.1/24']);
    expect(store.get('link/kept0')?.errno).toBe('EINVAL');
  });
});
