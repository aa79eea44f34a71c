import { describe, expect, it } from 'vitest';
import { type Input, input, output } from '../../../../src/cosi/controller/controller.js';
import { controllerErrorCode } from '../../../../src/cosi/controller/errors.js';
import { stateAdapter } from '../../../../src/cosi/controller/internal/adapter.js';
import { ResourceCache } from '../../../../src/cosi/controller/internal/cache.js';
import { metricsRegistry } from '../../../../src/cosi/controller/internal/metrics.js';
import { rateLimiter } from '../../../../src/cosi/controller/internal/rate-limit.js';
import { defineResource } from '../../../../src/cosi/resource/typed.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { IntResource, newInt, newStr, StrResource } from '../../../../src/cosi/testing/resources.js';

const setup = (inputs: Input[], limiter = rateLimiter()) => {
  const st = wrapCore(newInmemState());
  const metrics = metricsRegistry(true);
  const run = new AbortController();
  const touched: string[] = [];
  const rw = stateAdapter({
    name: 'Ctrl',
    state: st,
    metrics,
    cache: new ResourceCache([]),
    limiter,
    signal: () => run.signal,
    inputs: () => inputs,
    outputs: [output(StrResource, 'exclusive')],
    onWrite: (p) => touched.push(p.id),
  });
  return { st, rw, metrics, touched };
};

/** denied resolves with the message of an access-denied rejection. */
const denied = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    expect(controllerErrorCode(e)).toBe('access-denied');
    return (e as Error).message;
  }
  throw new Error('expected access to be denied');
};

const INT = IntResource.type;
const STR = StrResource.type;

describe('stateAdapter access', () => {
  it('reads inputs; an id-narrowed input allows get of that id only, and no list', async () => {
    const { st, rw } = setup([input(IntResource, { namespace: 'in', id: 'one' })]);
    await st.create(newInt('in', 'one', 1));
    await st.create(newInt('in', 'two', 2));
    expect((await rw.get(IntResource, 'one', { namespace: 'in' })).spec.value).toBe(1);
    const msg = `attempt to query resource "in"/"${INT}", not input or output for controller "Ctrl"`;
    expect(await denied(rw.get(IntResource, 'two', { namespace: 'in' }))).toBe(msg);
    expect(await denied(rw.list(IntResource, { namespace: 'in' }))).toBe(msg);
    expect(await denied(rw.get(IntResource, 'one', { namespace: 'elsewhere' }))).toBe(
      `attempt to query resource "elsewhere"/"${INT}", not input or output for controller "Ctrl"`,
    );
  });

  it('reads outputs in any namespace', async () => {
    const { st, rw } = setup([]);
    await st.create(newStr('anywhere', 's', 'v'));
    expect((await rw.list(StrResource, { namespace: 'anywhere' })).map((r) => r.spec.value)).toEqual(['v']);
    expect(await rw.getOrNull(StrResource, 'missing', { namespace: 'anywhere' })).toBeNull();
  });

  it('writes outputs only, with upstream messages', async () => {
    const { rw } = setup([input(IntResource, { namespace: 'in', kind: 'strong' })]);
    const not = (verb: string) =>
      `resource "in"/"${INT}" is not an output for controller "Ctrl", ${verb} attempted on "x"`;
    expect(await denied(rw.create(newInt('in', 'x', 1)))).toBe(not('create'));
    expect(await denied(rw.update(newInt('in', 'x', 1)))).toBe(not('update'));
    expect(await denied(rw.modify(IntResource, 'x', () => {}, { namespace: 'in' }))).toBe(not('update'));
    expect(await denied(rw.teardown(IntResource.pointer('x', 'in')))).toBe(not('teardown'));
    expect(await denied(rw.destroy(IntResource.pointer('x', 'in')))).toBe(not('destroy'));
  });

  it('changes finalizers only on strong (or q-primary / q-mapped) inputs', async () => {
    const weak = setup([input(IntResource, { namespace: 'in' })]);
    await weak.st.create(newInt('in', 'x', 1));
    expect(await denied(weak.rw.addFinalizer(IntResource.pointer('x', 'in'), 'f'))).toBe(
      `attempt to change finalizers for resource "in"/"${INT}", not an input with Strong dependency for controller "Ctrl"`,
    );
    // outputs do not grant finalizer rights either
    expect(await denied(weak.rw.addFinalizer(StrResource.pointer('s', 'in'), 'f'))).toBe(
      `attempt to change finalizers for resource "in"/"${STR}", not an input with Strong dependency for controller "Ctrl"`,
    );

    for (const kind of ['strong', 'q-primary', 'q-mapped'] as const) {
      const { st, rw } = setup([input(IntResource, { namespace: 'in', kind })]);
      await st.create(newInt('in', 'x', 1));
      await rw.addFinalizer(IntResource.pointer('x', 'in'), ['a', 'b']);
      await rw.removeFinalizer(IntResource.pointer('x', 'in'), 'a');
      expect((await st.get(IntResource.pointer('x', 'in'))).metadata.finalizers.list()).toEqual(['b']);
    }
    const qdr = setup([input(IntResource, { namespace: 'in', kind: 'q-mapped-destroy-ready' })]);
    await qdr.st.create(newInt('in', 'x', 1));
    await denied(qdr.rw.addFinalizer(IntResource.pointer('x', 'in'), 'f'));
  });

  it('treats removing a finalizer from a destroyed resource as done', async () => {
    const { rw } = setup([input(IntResource, { namespace: 'in', kind: 'strong' })]);
    await rw.removeFinalizer(IntResource.pointer('gone', 'in'), 'f');
  });

  it('rejects a stored resource of another type handle with the same name', async () => {
    const { st, rw } = setup([]);
    await st.create(newStr('ns', 's', 'v'));
    const Impostor = defineResource<{ value: string }>({
      type: STR,
      defaultNamespace: 'ns',
      empty: () => ({ value: '' }),
    });
    try {
      await rw.get(Impostor, 's');
      throw new Error('expected a type mismatch');
    } catch (e) {
      expect(controllerErrorCode(e)).toBe('type-mismatch');
    }
  });
});

describe('stateAdapter writes', () => {
  it('stamps the controller as owner, tracks outputs and counts calls', async () => {
    const { st, rw, metrics, touched } = setup([]);
    await rw.create(newStr('ns', 'a', 'x'));
    await rw.create(newStr('ns', 'u', 'x'), { noOwner: true });
    const stored = await rw.modifyWithResult(
      StrResource,
      'b',
      (spec, md) => {
        md.labels.set('l', 'v');
        spec.value = 'y';
      },
      { namespace: 'ns' },
    );
    expect(stored.metadata.owner).toBe('Ctrl');
    expect(stored.metadata.labels.get('l')).toBe('v');
    expect((await st.get(StrResource.pointer('a', 'ns'))).metadata.owner).toBe('Ctrl');
    expect((await st.get(StrResource.pointer('u', 'ns'))).metadata.owner).toBe('');
    // a returned spec replaces the copy
    await rw.modify(StrResource, 'b', () => ({ value: 'z' }), { namespace: 'ns' });
    expect((await rw.get(StrResource, 'b', { namespace: 'ns' })).spec.value).toBe('z');
    expect(touched).toEqual(['a', 'u', 'b', 'b']);
    const m = metrics.snapshot();
    expect(m.controller_writes.Ctrl).toBe(4);
    expect(m.controller_reads.Ctrl).toBe(1);
  });

  it("destroys someone else's resource only when given its owner", async () => {
    const { st, rw } = setup([]);
    await st.create(newStr('ns', 'user', 'x'));
    expect(await rw.teardown(StrResource.pointer('user', 'ns'), { owner: '' })).toBe(true);
    await rw.destroy(StrResource.pointer('user', 'ns'), { owner: '' });
    expect(await st.list({ namespace: 'ns', type: STR })).toEqual([]);
  });

  it('waits on the limiter for writes and finalizers, but not for denied calls', async () => {
    let waits = 0;
    const { st, rw } = setup([input(IntResource, { namespace: 'in', kind: 'strong' })], {
      wait: async () => {
        waits++;
      },
    });
    await st.create(newInt('in', 'x', 1));
    await denied(rw.create(newInt('in', 'y', 1)));
    expect(waits).toBe(0);
    await rw.create(newStr('ns', 's', 'v'));
    await rw.addFinalizer(IntResource.pointer('x', 'in'), 'f');
    await rw.teardown(StrResource.pointer('s', 'ns'));
    expect(waits).toBe(3);
  });
});
