import { describe, expect, it } from 'vitest';
import { isOwnerConflict, isPhaseConflict } from '../../../src/cosi/state/errors.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { ownedState } from '../../../src/cosi/state/owned.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { IntResource, newInt } from '../../../src/cosi/testing/resources.js';

const NS = 'ns-a';
type Int = ReturnType<typeof newInt>;

const setup = () => {
  const st = wrapCore(newInmemState());
  return { st, one: ownedState(st, 'owner1'), two: ownedState(st, 'owner2') };
};

const fails = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
};

describe('ownedState', () => {
  it('stamps the owner on create and confines update to it (as upstream TestOwned)', async () => {
    const { st, one, two } = setup();
    const r1 = newInt(NS, 'r1', 1);
    await one.create(r1);
    expect((await st.get(r1.metadata)).metadata.owner).toBe('owner1');

    expect(isOwnerConflict(await fails(two.update(r1)))).toBe(true);
    r1.spec.value = 2;
    await one.update(r1);
    // reads pass through whoever owns the resource
    expect(((await two.get(r1.metadata)) as Int).spec.value).toBe(2);
    expect((await two.list({ namespace: NS, type: IntResource.type })).map((r) => r.metadata.id)).toEqual([
      'r1',
    ]);
  });

  it('modify creates as the owner and returns the stored resource', async () => {
    const { st, two } = setup();
    const r2 = await two.modifyWithResult<Int>(newInt(NS, 'r2', 0), (r) => {
      r.spec.value = 7;
    });
    expect(r2.metadata.owner).toBe('owner2');
    expect(r2.metadata.version).toBe(1);
    const stored = (await st.get(r2.metadata)) as Int;
    expect(stored.spec.value).toBe(7);
    expect(stored.metadata.owner).toBe('owner2');
    await two.modify<Int>(newInt(NS, 'r2', 0), (r) => {
      r.spec.value = 8;
    });
    expect(((await st.get(r2.metadata)) as Int).spec.value).toBe(8);
  });

  it('tears down and destroys only its own resources unless given the owner', async () => {
    const { st, one, two } = setup();
    const r1 = newInt(NS, 'r1', 1);
    const r2 = newInt(NS, 'r2', 2);
    await one.create(r1);
    await two.create(r2);

    expect(await one.teardown(r1.metadata)).toBe(true);
    expect(isOwnerConflict(await fails(one.teardown(r2.metadata)))).toBe(true);
    expect(await one.teardown(r2.metadata, { owner: 'owner2' })).toBe(true);

    await one.destroy(r1.metadata);
    expect(isOwnerConflict(await fails(one.destroy(r2.metadata)))).toBe(true);
    await one.destroy(r2.metadata, { owner: 'owner2' });
    expect(await st.list({ namespace: NS, type: IntResource.type })).toEqual([]);
  });

  it('creates user-owned resources with noOwner (create and modify)', async () => {
    const { st, one } = setup();
    await one.modify(newInt(NS, 'r3', 0), () => {}, { noOwner: true });
    expect((await st.get(IntResource.pointer('r3', NS))).metadata.owner).toBe('');
    await one.create(newInt(NS, 'r4', 0), { noOwner: true });
    expect((await st.get(IntResource.pointer('r4', NS))).metadata.owner).toBe('');
    // and a user-owned resource can be torn down and destroyed with the empty owner
    expect(await one.teardown(IntResource.pointer('r4', NS), { owner: '' })).toBe(true);
    await one.destroy(IntResource.pointer('r4', NS), { owner: '' });
  });

  it('expects running resources unless told another phase', async () => {
    const { st, one } = setup();
    const r = newInt(NS, 'r', 1);
    await one.create(r);
    await one.teardown(r.metadata);
    const edit = (x: Int) => {
      x.spec.value = 5;
    };
    expect(isPhaseConflict(await fails(one.modify(newInt(NS, 'r', 0), edit)))).toBe(true);
    await one.modify(newInt(NS, 'r', 0), edit, { expectedPhase: 'tearingDown' });
    expect(((await st.get(r.metadata)) as Int).spec.value).toBe(5);
    await one.modify(
      newInt(NS, 'r', 0),
      (x) => {
        x.spec.value = 6;
      },
      { expectedPhase: 'any' },
    );
    expect(((await st.get(r.metadata)) as Int).spec.value).toBe(6);
  });

  it('leaves finalizers to anyone, whoever owns the resource', async () => {
    const { st, one, two } = setup();
    const r = newInt(NS, 'r', 1);
    await one.create(r);
    await two.addFinalizer(r.metadata, ['a', 'b']);
    await two.removeFinalizer(r.metadata, 'a');
    const got = await st.get(r.metadata);
    expect(got.metadata.finalizers.list()).toEqual(['b']);
    expect(got.metadata.owner).toBe('owner1');
  });
});
