import { describe, expect, it } from 'vitest';
import { ResourceCache } from '../../../../src/cosi/controller/internal/cache.js';
import { idRegexpMatch } from '../../../../src/cosi/resource/id-query.js';
import { labelEqual, labelQuery } from '../../../../src/cosi/resource/label-query.js';
import { Tombstone } from '../../../../src/cosi/resource/resource.js';
import { isNotFound } from '../../../../src/cosi/state/errors.js';
import { IntResource, newInt } from '../../../../src/cosi/testing/resources.js';

const kind = { namespace: 'ns', type: IntResource.type };
const signal = () => new AbortController().signal;
const bootstrapped = { type: 'bootstrapped' as const, resource: Tombstone.of({ ...kind, id: '' }) };

describe('ResourceCache', () => {
  it('serves only configured kinds', () => {
    const c = new ResourceCache([kind]);
    expect(c.handles('ns', IntResource.type)).toBe(true);
    expect(c.handles('other', IntResource.type)).toBe(false);
  });

  it('blocks reads until bootstrapped, then answers from memory', async () => {
    const c = new ResourceCache([kind]);
    c.apply(kind, { type: 'created', resource: newInt('ns', 'b', 2) });
    c.apply(kind, { type: 'created', resource: newInt('ns', 'a', 1) });
    let done = false;
    const listing = c.list(kind, {}, signal()).then((l) => {
      done = true;
      return l;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    expect(c.apply(kind, bootstrapped)).toBe(2);
    expect((await listing).map((r) => r.metadata.id)).toEqual(['a', 'b']);
  });

  it('follows updates and destroys, returns copies and filters like the state', async () => {
    const c = new ResourceCache([kind]);
    c.apply(kind, bootstrapped);
    const a = newInt('ns', 'a', 1);
    a.metadata.labels.set('app', 'x');
    c.apply(kind, { type: 'created', resource: a });
    c.apply(kind, { type: 'created', resource: newInt('ns', 'b', 2) });
    c.apply(kind, { type: 'updated', resource: newInt('ns', 'b', 3), old: newInt('ns', 'b', 2) });
    const got = await c.get({ ...kind, id: 'b' }, signal());
    expect((got as ReturnType<typeof newInt>).spec.value).toBe(3);
    (got as ReturnType<typeof newInt>).spec.value = 99; // a copy: the cache keeps 3
    expect(((await c.get({ ...kind, id: 'b' }, signal())) as ReturnType<typeof newInt>).spec.value).toBe(3);

    const byLabel = await c.list(kind, { labelQueries: [labelQuery(labelEqual('app', 'x'))] }, signal());
    expect(byLabel.map((r) => r.metadata.id)).toEqual(['a']);
    const byID = await c.list(kind, { idQuery: idRegexpMatch('^b') }, signal());
    expect(byID.map((r) => r.metadata.id)).toEqual(['b']);

    c.apply(kind, { type: 'destroyed', resource: newInt('ns', 'b', 3) });
    try {
      await c.get({ ...kind, id: 'b' }, signal());
      throw new Error('expected not found');
    } catch (e) {
      expect(isNotFound(e)).toBe(true);
    }
  });

  it('a waiting read rejects when its signal aborts', async () => {
    const c = new ResourceCache([kind]);
    const ac = new AbortController();
    const waiting = c.get({ ...kind, id: 'x' }, ac.signal);
    ac.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
