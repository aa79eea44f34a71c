// Watch reconnects: resumed from the last bookmark when the stream breaks, stopped when the bookmark is refused.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type GrpcCoreStateOptions, grpcCoreState } from '../../../src/cosi/api/client.js';
import type { WatchRetryInfo } from '../../../src/cosi/api/client-watch.js';
import type { Kind } from '../../../src/cosi/resource/kind.js';
import type { CoreState } from '../../../src/cosi/state/core.js';
import { isInvalidBookmark } from '../../../src/cosi/state/errors.js';
import type { StateEvent } from '../../../src/cosi/state/events.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { type Served, serve, tempDir } from './harness.js';

const NS = 'default';
const KIND: Kind = { namespace: NS, type: PathResource.type };

/** Quick retries and reconnects: nothing here waits on a clock, they only keep the test short. */
const FAST: GrpcCoreStateOptions = {
  watchRetry: { initialMs: 5, maxMs: 50 },
  channelOptions: { 'grpc.initial_reconnect_backoff_ms': 20, 'grpc.max_reconnect_backoff_ms': 100 },
};

/** A server on a fixed unix socket that can be stopped and started again, over any state. */
async function restartable() {
  const { dir, remove } = await tempDir();
  const bind = `unix://${join(dir, 'state.sock')}`;
  let current: Served | undefined;
  const start = async (core: CoreState) => {
    await rm(join(dir, 'state.sock'), { force: true });
    current = await serve(core, { bind });
  };
  const stop = () => current?.stop();
  onTestFinished(async () => {
    stop();
    await remove();
  });
  return { target: bind, start, stop };
}

function client(target: string, opts: GrpcCoreStateOptions = FAST) {
  const remote = grpcCoreState(target, credentials.createInsecure(), opts);
  onTestFinished(() => remote.close());
  return remote;
}

/** batches reads an aggregated watch one message at a time. */
function batches(stream: AsyncIterable<StateEvent[]>) {
  const it = stream[Symbol.asyncIterator]();
  return {
    async next(): Promise<StateEvent[]> {
      const r = await it.next();
      if (r.done) throw new Error('watch ended');
      return r.value;
    },
    async done(): Promise<boolean> {
      return (await it.next()).done === true;
    },
  };
}

describe('watch retry', () => {
  it('resumes from the last bookmark after the server restarts, missing nothing', async () => {
    const core = newInmemState();
    const srv = await restartable();
    await srv.start(core);
    const retries: WatchRetryInfo[] = [];
    const remote = client(srv.target, { ...FAST, onWatchRetry: (i) => retries.push(i) });
    const w = batches(await remote.watchKindAggregated(KIND, { bootstrapContents: true }));
    const boot = await w.next();
    expect(boot.map((e) => e.type)).toEqual(['bootstrapped']);

    // Changes made while the server is down arrive once it is back.
    srv.stop();
    const r = PathResource.new(NS, 'a');
    await core.create(r);
    await srv.start(core);
    expect((await w.next()).map((e) => [e.type, 'resource' in e ? e.resource?.metadata.id : ''])).toEqual([
      ['created', 'a'],
    ]);

    srv.stop();
    r.metadata.finalizers.add('f');
    await core.update(r);
    await srv.start(core);
    expect((await w.next()).map((e) => e.type)).toEqual(['updated']);

    expect(retries.length).toBeGreaterThan(0);
    expect(retries[0]).toMatchObject({ namespace: NS, type: PathResource.type });
    expect(retries[0]!.bookmark).toEqual(boot[0]!.bookmark);
  });

  it('stops with the invalid-bookmark error when the restarted server refuses the bookmark', async () => {
    const srv = await restartable();
    const first = newInmemState();
    for (const id of ['a', 'b', 'c']) await first.create(PathResource.new(NS, id));
    await srv.start(first);
    const remote = client(srv.target);
    const w = batches(await remote.watchKindAggregated(KIND, { bootstrapBookmark: true }));
    expect((await w.next()).map((e) => e.type)).toEqual(['noop']);

    // An empty new state has never reached that position: FAILED_PRECONDITION, which retrying cannot fix.
    srv.stop();
    await srv.start(newInmemState());
    const last = await w.next();
    expect(last.map((e) => e.type)).toEqual(['errored']);
    const ev = last[0]!;
    expect(ev.type === 'errored' && isInvalidBookmark(ev.error)).toBe(true);
    expect(await w.done()).toBe(true);
  });

  it('delivers the error and ends when there is no bookmark to resume from', async () => {
    const srv = await restartable();
    await srv.start(newInmemState());
    const remote = client(srv.target);
    const w = batches(await remote.watchKindAggregated(KIND));
    srv.stop();
    expect((await w.next()).map((e) => e.type)).toEqual(['errored']);
    expect(await w.done()).toBe(true);
  });

  it('does not retry when retries are disabled', async () => {
    const srv = await restartable();
    await srv.start(newInmemState());
    const remote = client(srv.target, { ...FAST, watchRetry: false });
    const w = remote.watchKind(KIND, { bootstrapContents: true });
    const events: StateEvent[] = [];
    const stream = await w;
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    if (!first.done) events.push(first.value);
    srv.stop();
    const second = await it.next();
    if (!second.done) events.push(second.value);
    expect(events.map((e) => e.type)).toEqual(['bootstrapped', 'errored']);
    expect((await it.next()).done).toBe(true);
  });

  it('ends quietly when closed or aborted, including while waiting to reconnect', async () => {
    const srv = await restartable();
    await srv.start(newInmemState());
    let retried!: () => void;
    const parked = new Promise<void>((resolve) => {
      retried = resolve;
    });
    const remote = client(srv.target, {
      ...FAST,
      watchRetry: { initialMs: 60_000 },
      onWatchRetry: () => retried(),
    });

    const closed = await remote.watch(PathResource.pointer('x'));
    const it = closed[Symbol.asyncIterator]();
    expect((await it.next()).value?.type).toBe('destroyed');
    closed.close();
    expect((await it.next()).done).toBe(true);

    const ctrl = new AbortController();
    const w = batches(
      await remote.watchKindAggregated(KIND, { bootstrapContents: true, signal: ctrl.signal }),
    );
    await w.next();
    srv.stop();
    const ended = w.done(); // reading is what notices the break and starts the retry
    await parked; // now waiting out a long backoff
    ctrl.abort();
    expect(await ended).toBe(true);
  });
});
