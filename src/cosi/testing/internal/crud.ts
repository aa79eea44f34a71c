// State conformance: create, read, update, destroy, owners, labels and ID queries.
import { expect } from 'vitest';
import { idRegexpMatch } from '../../resource/id-query.js';
import {
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
} from '../../resource/label-query.js';
import { equal, type Resource, resourceString } from '../../resource/resource.js';
import { isConflict, isNotFound, isOwnerConflict, isPhaseConflict } from '../../state/errors.js';
import { IntResource, newInt } from '../resources.js';
import { type Define, failure } from './env.js';

const str = resourceString;

/** equalIgnoringVersion compares as upstream's resourceEqualIgnoreVersion. */
function equalIgnoringVersion(a: Resource, b: Resource): boolean {
  const ca = a.deepCopy();
  const cb = b.deepCopy();
  ca.metadata.version = undefined;
  cb.metadata.version = undefined;
  return equal(ca, cb);
}

export function crudTests(test: Define): void {
  test('CRD', async ({ st, kind, path }) => {
    const path1 = path('var/run');
    const path2 = path('var/lib');

    expect(isNotFound(await failure(st.get(path1.metadata)))).toBe(true);
    expect(isNotFound(await failure(st.get(path2.metadata)))).toBe(true);
    expect(await st.list(kind)).toEqual([]);

    await st.create(path1);
    await st.create(path2);
    expect(path1.metadata.version).toBe(1);

    expect(str(await st.get(path1.metadata))).toBe(str(path1));
    expect(str(await st.get(path2.metadata))).toBe(str(path2));
    expect((await st.list(kind)).map(str)).toEqual([str(path2), str(path1)]);

    expect(isConflict(await failure(st.create(path1)))).toBe(true);

    expect(await st.teardown(path1.metadata)).toBe(true);
    await st.destroy(path1.metadata);
    expect(isNotFound(await failure(st.teardown(path1.metadata)))).toBe(true);
    expect(isNotFound(await failure(st.destroy(path1.metadata)))).toBe(true);
    expect(isNotFound(await failure(st.get(path1.metadata)))).toBe(true);
    expect((await st.list(kind)).map(str)).toEqual([str(path2)]);

    expect(await st.teardown(path2.metadata)).toBe(true);
    await st.create(path1);
  });

  test('UpdateWithConflicts', async ({ st, ns, path }) => {
    const path1 = path('var/run/update');
    await st.create(path1);

    const updated = await st.updateWithConflicts(path1.metadata, (r) => {
      r.metadata.labels.set('foo', 'bar');
    });
    // the updated resource comes back, and the caller's object is untouched
    expect(updated.metadata.labels.get('foo')).toBe('bar');
    expect(updated.metadata.version).toBe(2);
    expect(path1.metadata.labels.get('foo')).toBeUndefined();

    // no change: no write, no version bump
    const same = await st.updateWithConflicts(path1.metadata, () => {});
    expect(same.metadata.version).toBe(2);
    expect((await st.get(path1.metadata)).metadata.version).toBe(2);

    // concurrent read-modify-write cycles all land
    const counter = newInt(ns, 'counter', 0);
    await st.create(counter);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        st.updateWithConflicts<IntResource>(counter.metadata, (r) => {
          r.spec.value++;
        }),
      ),
    );
    const final = await st.get(counter.metadata);
    expect(IntResource.is(final) && final.spec.value).toBe(10);
    expect(final.metadata.version).toBe(11);

    // the expected phase is checked even when fn changes nothing
    await st.teardown(path1.metadata);
    expect(isPhaseConflict(await failure(st.updateWithConflicts(path1.metadata, () => {})))).toBe(true);
    const any = await st.updateWithConflicts(path1.metadata, () => {}, { expectedPhase: 'any' });
    expect(any.metadata.phase).toBe('tearingDown');
  });

  test('CRDWithOwners', async ({ st, path }) => {
    const path1 = path('owner1/var/run');
    const path2 = path('owner2/var/lib');
    const [owner1, owner2] = ['owner1', 'owner2'];

    await st.create(path1, { owner: owner1 });
    await st.create(path2, { owner: owner2 });
    expect(path1.metadata.owner).toBe(owner1);

    let r = await st.get(path1.metadata);
    expect(str(r)).toBe(str(path1));
    expect(r.metadata.owner).toBe(owner1);

    r = await st.get(path2.metadata);
    expect(str(r)).toBe(str(path2));
    expect(r.metadata.owner).toBe(owner2);

    let e = await failure(st.update(r));
    expect(isConflict(e) && isOwnerConflict(e)).toBe(true);
    e = await failure(st.update(r, { owner: owner1 }));
    expect(isConflict(e) && isOwnerConflict(e)).toBe(true);
    await st.update(r, { owner: owner2 });

    expect(isConflict(await failure(st.teardown(path1.metadata)))).toBe(true);
    expect(await st.teardown(path1.metadata, { owner: owner1 })).toBe(true);
    expect(isConflict(await failure(st.destroy(path1.metadata, { owner: owner2 })))).toBe(true);
    await st.destroy(path1.metadata, { owner: owner1 });

    // finalizers are edited as the current owner
    await st.addFinalizer(path2.metadata, 'fin1');
    await st.removeFinalizer(path2.metadata, 'fin1');
    expect((await st.get(path2.metadata)).metadata.owner).toBe(owner2);
  });

  test('ParallelDestroy', async ({ st, path }) => {
    const res = path('/');
    await st.create(res);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => st.destroy(res.metadata)));
    const ok = results.filter((x) => x.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const x of results) if (x.status === 'rejected') expect(isNotFound(x.reason)).toBe(true);
  });

  test('Update', async ({ st, path }) => {
    let path1 = path('tmp/path1');

    expect(isNotFound(await failure(st.update(path1)))).toBe(true);

    const oldVersion = path1.metadata.version;
    await st.create(path1);
    const newVersion = path1.metadata.version!;
    expect(newVersion).not.toBe(oldVersion);

    path1.metadata.version = oldVersion;
    expect(isConflict(await failure(st.update(path1)))).toBe(true);
    path1.metadata.version = newVersion + 1;
    expect(isConflict(await failure(st.update(path1)))).toBe(true);
    path1.metadata.version = newVersion;
    await st.update(path1);
    expect(path1.metadata.version).toBe(newVersion + 1);

    // torn down resources are not updatable by default
    await st.teardown(path1.metadata);
    path1 = (await st.get(path1.metadata)) as typeof path1;
    expect(isPhaseConflict(await failure(st.update(path1)))).toBe(true);
    await st.update(path1, { expectedPhase: 'tearingDown' });
  });

  test('Labels', async ({ st, kind, path }) => {
    const path1 = path('labeled/app1');
    path1.metadata.labels.do((m) => Object.assign(m, { app: 'app1', frozen: '', weight: '10kg' }));
    const path2 = path('labeled/app2');
    path2.metadata.labels.do((m) => Object.assign(m, { app: 'app2', frozen: '', weight: '20kg' }));
    const path3 = path('labeled/app3');
    path3.metadata.labels.set('app', 'app3');

    await st.create(path1);
    await st.create(path2);
    await st.create(path3);

    expect((await st.get(path1.metadata)).metadata.labels.get('app')).toBe('app1');

    const cases: [string, ReturnType<typeof labelQuery>[], Resource[]][] = [
      ['exists(frozen)', [labelQuery(labelExists('frozen'))], [path1, path2]],
      ['frozen && app=app2', [labelQuery(labelExists('frozen'), labelEqual('app', 'app2'))], [path2]],
      ['frozen && app=app3', [labelQuery(labelExists('frozen'), labelEqual('app', 'app3'))], []],
      ['app=app3', [labelQuery(labelEqual('app', 'app3'))], [path3]],
      ['app in (app2, app3)', [labelQuery(labelIn('app', ['app2', 'app3']))], [path2, path3]],
      ['weight < 12000', [labelQuery(labelLTNumeric('weight', '12000'))], [path1]],
      ['weight <= 20000', [labelQuery(labelLTENumeric('weight', '20000'))], [path1, path2]],
      ['app <= app2', [labelQuery(labelLTE('app', 'app2'))], [path1, path2]],
      ['app < app2', [labelQuery(labelLT('app', 'app2'))], [path1]],
      [
        'app=app2 || app=app3',
        [labelQuery(labelEqual('app', 'app2')), labelQuery(labelEqual('app', 'app3'))],
        [path2, path3],
      ],
    ];
    for (const [title, labelQueries, want] of cases) {
      const got = await st.list(kind, { labelQueries });
      expect(got.map(str), title).toEqual(want.map(str));
      for (let i = 0; i < want.length; i++) expect(equalIgnoringVersion(got[i]!, want[i]!), title).toBe(true);
    }
  });

  test('IDQuery', async ({ st, kind, path, watchKind }) => {
    for (let i = 0; i < 10; i++) await st.create(path(`idquery/path${i}`));
    const idQuery = idRegexpMatch('^idquery/.+[2-4]$');

    const list = await st.list(kind, { idQuery });
    expect(list.map((r) => r.metadata.id)).toEqual(['idquery/path2', 'idquery/path3', 'idquery/path4']);

    const w = await watchKind(false, { bootstrapContents: true, idQuery });
    for (let i = 2; i <= 4; i++) {
      const ev = await w.next();
      expect(ev.type).toBe('created');
      expect(ev.type === 'created' && ev.resource.metadata.id).toBe(`idquery/path${i}`);
    }
    const boot = await w.next();
    expect(boot.type).toBe('bootstrapped');
    expect(boot.type === 'bootstrapped' && boot.resource.metadata.namespace).toBe(kind.namespace);
    expect(boot.type === 'bootstrapped' && boot.resource.metadata.type).toBe(kind.type);

    for (let i = 0; i < 10; i++) await st.destroy(path(`idquery/path${i}`).metadata);
    for (let i = 2; i <= 4; i++) {
      const ev = await w.next();
      expect(ev.type).toBe('destroyed');
      expect(ev.type === 'destroyed' && ev.resource.metadata.id).toBe(`idquery/path${i}`);
    }
  });
}
