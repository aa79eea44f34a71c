// grpcCoreState specifics: metadata written back, expected phases, opaque reads, and cancellation.
import { describe, expect, it, onTestFinished } from 'vitest';
import { OpaqueResource } from '../../../src/cosi/resource/opaque.js';
import { StateError } from '../../../src/cosi/state/errors.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { IntResource, PathResource } from '../../../src/cosi/testing/resources.js';
import { pair } from './harness.js';

const NS = 'default';

async function setup() {
  const p = await pair();
  onTestFinished(p.close);
  return { ...p, st: wrapCore(p.core) };
}

describe('grpcCoreState', () => {
  it("writes the state's version, owner and timestamps back into the caller's resource", async () => {
    const { core, remote } = await setup();
    const r = IntResource.new(NS, 'n', { value: 1 });
    r.metadata.created = 0;
    r.metadata.updated = 0;
    await remote.create(r, { owner: 'ctrl' });
    const stored = await core.get(r.metadata);
    expect(r.metadata.version).toBe(1);
    expect(r.metadata.owner).toBe('ctrl');
    expect([r.metadata.created, r.metadata.updated]).toEqual([
      stored.metadata.created,
      stored.metadata.updated,
    ]);
    r.spec.value = 2;
    await remote.update(r, { owner: 'ctrl' });
    expect(r.metadata.version).toBe(2);
    expect(r.metadata.updated).toBe((await core.get(r.metadata)).metadata.updated);
    expect((await remote.get(r.metadata)).spec).toEqual({ value: 2 });
  });

  it('expects the running phase unless told otherwise', async () => {
    const { core, remote } = await setup();
    const r = PathResource.new(NS, 'p');
    await core.create(r);
    r.metadata.phase = 'tearingDown';
    await core.update(r);
    await expect(remote.update(r)).rejects.toThrow(StateError);
    await remote.update(r, { expectedPhase: 'tearingDown' });
    await remote.update(r, { expectedPhase: 'any' });
    expect(r.metadata.version).toBe(4);
  });

  it('reads specs opaque when asked to, with the YAML rendering the server made', async () => {
    const { core, remote } = await setup();
    await core.create(IntResource.new(NS, 'n', { value: 42 }));
    const typed = await remote.get(IntResource.pointer('n', NS));
    expect(IntResource.is(typed)).toBe(true);
    const opaque = await remote.get(IntResource.pointer('n', NS), { skipProtobufUnmarshal: true });
    expect(opaque).toBeInstanceOf(OpaqueResource);
    expect((opaque as OpaqueResource).spec.yamlSpec).toBe('value: 42\n');
    const [listed] = await remote.list(
      { namespace: NS, type: IntResource.type },
      { skipProtobufUnmarshal: true },
    );
    expect(listed).toBeInstanceOf(OpaqueResource);
  });

  it('cancels a blocked call when its signal aborts or the state closes', async () => {
    const { core, st, remote } = await setup();
    const r = PathResource.new(NS, 'held');
    await core.create(r);
    await st.addFinalizer(r.metadata, 'f');
    const ctrl = new AbortController();
    const reason = new Error('gave up');
    const aborted = remote.teardownAndDestroy(r.metadata, { signal: ctrl.signal });
    await st.watchFor(r.metadata, { phases: ['tearingDown'] });
    ctrl.abort(reason);
    await expect(aborted).rejects.toBe(reason);

    const closing = remote.teardownAndDestroy(r.metadata);
    const watch = await remote.watch(r.metadata);
    remote.close();
    await expect(closing).rejects.toThrow('grpc state closed');
    const it = watch[Symbol.asyncIterator]();
    // the watch's queued first event may still be read; then it ends
    let r2 = await it.next();
    if (!r2.done) r2 = await it.next();
    expect(r2.done).toBe(true);
    await expect(remote.get(r.metadata)).rejects.toThrow('grpc state closed');
  });
});
