// Teardown and TeardownAndDestroy over gRPC: native calls, and the get+update fallback for older servers.
import {
  type Client,
  credentials,
  Client as GrpcClient,
  InterceptingCall,
  type Interceptor,
} from '@grpc/grpc-js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { grpcCoreState } from '../../../src/cosi/api/client.js';
import { isNotFound } from '../../../src/cosi/state/errors.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { serve } from './harness.js';

const NS = 'default';

/** countingClient records the method of every call it makes. */
function countingClient(target: string): { client: Client; calls: string[] } {
  const calls: string[] = [];
  const count: Interceptor = (options, next) => {
    calls.push(options.method_definition.path.split('/').pop()!);
    return new InterceptingCall(next(options));
  };
  const client = new GrpcClient(target, credentials.createInsecure(), { interceptors: [count] });
  onTestFinished(() => client.close());
  return { client, calls };
}

async function setup(without: string[] = []) {
  const core = newInmemState();
  const served = await serve(core, { without });
  const { client, calls } = countingClient(served.target);
  const remote = grpcCoreState(client);
  onTestFinished(() => {
    remote.close();
    served.stop();
  });
  return { core, st: wrapCore(core), remote, calls };
}

describe('teardown over gRPC', () => {
  it('tears down in one call and reports whether finalizers remain', async () => {
    const { core, st, remote, calls } = await setup();
    const free = PathResource.new(NS, 'free');
    await core.create(free);
    expect(await remote.teardown(free.metadata)).toBe(true);
    expect((await core.get(free.metadata)).metadata.phase).toBe('tearingDown');
    expect(await remote.teardown(free.metadata)).toBe(true); // idempotent
    const held = PathResource.new(NS, 'held');
    await core.create(held);
    await st.addFinalizer(held.metadata, 'f');
    expect(await remote.teardown(held.metadata)).toBe(false);
    expect(calls).toEqual(['Teardown', 'Teardown', 'Teardown']);
  });

  it('teardownAndDestroy blocks until the finalizers are gone', async () => {
    const { core, st, remote } = await setup();
    const r = PathResource.new(NS, 'r');
    await core.create(r);
    await st.addFinalizer(r.metadata, 'f');
    const tearing = st.watchFor(r.metadata, { phases: ['tearingDown'] });
    const done = remote.teardownAndDestroy(r.metadata);
    await tearing;
    await st.removeFinalizer(r.metadata, 'f');
    await done;
    expect(isNotFound(await core.get(r.metadata).catch((e: unknown) => e))).toBe(true);
    expect(isNotFound(await remote.teardownAndDestroy(r.metadata).catch((e: unknown) => e))).toBe(true);
  });

  it('falls back to get+update when the server lacks the RPCs, and remembers it', async () => {
    const { core, remote, calls } = await setup(['Teardown', 'TeardownAndDestroy']);
    const a = PathResource.new(NS, 'a');
    const b = PathResource.new(NS, 'b');
    await core.create(a);
    await core.create(b);
    expect(await remote.teardown(a.metadata)).toBe(true);
    expect((await core.get(a.metadata)).metadata.phase).toBe('tearingDown');
    expect(await remote.teardown(b.metadata)).toBe(true);
    expect(calls.filter((c) => c === 'Teardown')).toEqual(['Teardown']);

    await remote.teardownAndDestroy(a.metadata);
    await remote.teardownAndDestroy(b.metadata);
    expect(await core.list({ namespace: NS, type: PathResource.type })).toEqual([]);
    expect(calls.filter((c) => c === 'TeardownAndDestroy')).toEqual(['TeardownAndDestroy']);
  });
});
