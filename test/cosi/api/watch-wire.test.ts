// Watch as seen on the wire by any client: the empty first message, API version filtering, framing, release.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CoreState } from '../../../src/cosi/state/core.js';
import type { StateEvent, WatchStream } from '../../../src/cosi/state/events.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { delegate, serve } from './harness.js';
import { type Msg, rawClient, reader } from './raw-client.js';

const NS = 'default';
const TYPE = PathResource.type;

async function setup(core: CoreState = newInmemState()) {
  const served = await serve(core);
  const raw = rawClient(served.target);
  onTestFinished(() => {
    raw.close();
    served.stop();
  });
  return { core, raw };
}

const events = (m: Msg) => (m.event ?? []) as Msg[];
const ids = (m: Msg) =>
  events(m).map((e) => (e.resource as { metadata?: { id?: string } } | undefined)?.metadata?.id);
const types = (m: Msg) => events(m).map((e) => e.event_type ?? 'CREATED');

describe('Watch on the wire', () => {
  it('first sends one empty message, for kind, aggregated and single-resource watches', async () => {
    const { core, raw } = await setup();
    const kind = reader(raw.stream('Watch', { namespace: NS, type: TYPE, api_version: 1 }));
    const aggregated = reader(
      raw.stream('Watch', { namespace: NS, type: TYPE, options: { aggregated: true }, api_version: 1 }),
    );
    const single = reader(raw.stream('Watch', { namespace: NS, type: TYPE, id: 'a', api_version: 1 }));
    for (const s of [kind, aggregated, single]) expect(await s.next()).toEqual({});
    // established means nothing after the empty message is missed
    await core.create(PathResource.new(NS, 'a'));
    expect(types(await kind.next())).toEqual(['CREATED']);
    expect(types(await aggregated.next())).toEqual(['CREATED']);
    // a single-resource watch starts with the current state: absent, then created
    expect(types(await single.next())).toEqual(['DESTROYED']);
    expect(ids(await single.next())).toEqual(['a']);
  });

  it('watches a single resource when id is present, even if empty', async () => {
    const { core, raw } = await setup();
    await core.create(PathResource.new(NS, 'x'));
    const s = reader(raw.stream('Watch', { namespace: NS, type: TYPE, id: '', api_version: 1 }));
    expect(await s.next()).toEqual({});
    // not the kind watch (which would report x): the resource with the empty id, which is absent
    expect(types(await s.next())).toEqual(['DESTROYED']);
  });

  it('sends one event per message unless aggregated', async () => {
    const { core, raw } = await setup();
    for (const id of ['a', 'b', 'c']) await core.create(PathResource.new(NS, id));
    const opts = { bootstrap_contents: true };
    const plain = reader(raw.stream('Watch', { namespace: NS, type: TYPE, options: opts, api_version: 1 }));
    expect(await plain.next()).toEqual({});
    expect([ids(await plain.next()), ids(await plain.next()), ids(await plain.next())]).toEqual([
      ['a'],
      ['b'],
      ['c'],
    ]);
    expect(types(await plain.next())).toEqual(['BOOTSTRAPPED']);

    const agg = reader(
      raw.stream('Watch', {
        namespace: NS,
        type: TYPE,
        options: { ...opts, aggregated: true },
        api_version: 1,
      }),
    );
    expect(await agg.next()).toEqual({});
    expect(types(await agg.next())).toEqual(['CREATED', 'CREATED', 'CREATED', 'BOOTSTRAPPED']);
  });

  it('hides BOOTSTRAPPED from clients below API version 1', async () => {
    const { core, raw } = await setup();
    await core.create(PathResource.new(NS, 'a'));
    const old = reader(
      raw.stream('Watch', {
        namespace: NS,
        type: TYPE,
        options: { bootstrap_contents: true, aggregated: true },
      }),
    );
    expect(await old.next()).toEqual({});
    expect(types(await old.next())).toEqual(['CREATED']);
    await core.create(PathResource.new(NS, 'b'));
    // had BOOTSTRAPPED been sent on its own, it would be this message
    const next = await old.next();
    expect(types(next)).toEqual(['CREATED']);
    expect(ids(next)).toEqual(['b']);
  });

  it('still sends NOOP bookmarks below API version 1', async () => {
    const { raw } = await setup();
    const old = reader(
      raw.stream('Watch', { namespace: NS, type: TYPE, options: { bootstrap_bookmark: true } }),
    );
    expect(await old.next()).toEqual({});
    const noop = events(await old.next());
    expect(noop.map((e) => e.event_type)).toEqual(['NOOP']);
    expect((noop[0]!.bookmark as Uint8Array).length).toBeGreaterThan(0);
  });

  it('hides ERRORED below API version 1 and ends the stream either way', async () => {
    const failing: CoreState = {
      ...delegate(newInmemState()),
      watchKind: async (): Promise<WatchStream<StateEvent>> => ({
        close() {},
        async *[Symbol.asyncIterator]() {
          yield { type: 'errored', error: new Error('buffer overrun: test') };
        },
      }),
    };
    const { raw } = await setup(failing);
    const v1 = reader(raw.stream('Watch', { namespace: NS, type: TYPE, api_version: 1 }));
    expect(await v1.next()).toEqual({});
    const errored = events(await v1.next());
    expect(errored).toHaveLength(1);
    expect(errored[0]).toMatchObject({ event_type: 'ERRORED', error: 'buffer overrun: test' });
    expect(errored[0]!.resource).toBeUndefined();
    expect(await v1.end()).toBeUndefined();
    const v0 = reader(raw.stream('Watch', { namespace: NS, type: TYPE }));
    expect(await v0.next()).toEqual({});
    expect(await v0.end()).toBeUndefined();
  });

  it('releases the state watch when the client cancels', async () => {
    let released!: () => void;
    const closed = new Promise<void>((resolve) => {
      released = resolve;
    });
    const inner = newInmemState();
    const spying: CoreState = {
      ...delegate(inner),
      watchKind: async (k, o) => {
        const s = await inner.watchKind(k, o);
        return {
          close: () => {
            released();
            s.close();
          },
          [Symbol.asyncIterator]: () => s[Symbol.asyncIterator](),
        };
      },
    };
    const { raw } = await setup(spying);
    const s = raw.stream('Watch', { namespace: NS, type: TYPE, api_version: 1 });
    expect(await reader(s).next()).toEqual({});
    s.cancel();
    await closed;
  });
});

describe('List on the wire', () => {
  it('streams one message per resource, sorted by id', async () => {
    const { core, raw } = await setup();
    for (const id of ['c', 'a', 'b']) await core.create(PathResource.new(NS, id));
    const got: Msg[] = [];
    for await (const m of raw.stream('List', { namespace: NS, type: TYPE })) got.push(m);
    expect(got.map((m) => (m.resource as { metadata: { id: string } }).metadata.id)).toEqual(['a', 'b', 'c']);
  });
});
