import { describe, expect, it } from 'vitest';
import type { CoreState } from '../../../src/cosi/state/core.js';
import { isNotFound } from '../../../src/cosi/state/errors.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { namespaced } from '../../../src/cosi/state/namespaced.js';
import { IntResource, newInt } from '../../../src/cosi/testing/resources.js';
import { stateConformance } from '../../../src/cosi/testing/state-conformance.js';
import { eventReader } from '../../../src/cosi/testing/watch-reader.js';

stateConformance('namespaced inmem', async () => ({ state: namespaced(() => newInmemState()) }));

describe('namespaced', () => {
  it('builds each namespace once, on first use, and routes every verb to it', async ({ signal }) => {
    const built = new Map<string, CoreState>();
    const st = namespaced((ns) => {
      const s = newInmemState();
      built.set(ns, s);
      return s;
    });
    expect(built.size).toBe(0);

    const a = newInt('a', 'x', 1);
    const w = eventReader(await st.watchKind({ namespace: 'a', type: IntResource.type }, { signal }));
    await st.create(a);
    await st.create(newInt('b', 'x', 2));
    expect([...built.keys()]).toEqual(['a', 'b']);

    expect(((await built.get('a')!.get(a.metadata)) as IntResource).spec.value).toBe(1);
    expect(
      isNotFound(
        await built
          .get('b')!
          .get(a.metadata)
          .catch((e) => e),
      ),
    ).toBe(true);
    expect(
      (await st.list({ namespace: 'b', type: IntResource.type })).map((r) => r.metadata.namespace),
    ).toEqual(['b']);

    a.spec.value = 3;
    await st.update(a);
    await st.destroy(a.metadata);
    expect((await w.take(3)).map((e) => e.type)).toEqual(['created', 'updated', 'destroyed']);
    expect(built.size).toBe(2);
  });
});
