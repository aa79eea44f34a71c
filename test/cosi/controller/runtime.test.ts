import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  type ControllerRuntime,
  controllerErrorCode,
  defineController,
  defineQController,
  input,
  type Logger,
  output,
  RequeueError,
  Runtime,
  silentLogger,
} from '../../../src/cosi/controller/index.js';
import type { StateEvent, WatchStream } from '../../../src/cosi/state/events.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { namespaced } from '../../../src/cosi/state/namespaced.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { IntResource, newInt, StrResource } from '../../../src/cosi/testing/resources.js';
import { runtimeConformance } from '../../../src/cosi/testing/runtime-conformance.js';

describe('runtime conformance', () => {
  runtimeConformance('inmem', async () => ({ state: wrapCore(newInmemState()) }));
  runtimeConformance('namespaced inmem', async () => ({
    state: wrapCore(namespaced(() => newInmemState())),
  }));
  // one backend for every test: namespaces keep them apart
  const shared = wrapCore(newInmemState());
  runtimeConformance('inmem, cached and rate limited', async () => ({ state: shared }), {
    cached: true,
    changeRateLimit: { rate: 10_000, burst: 100 },
  });
});

const FAST = { initial: 1, multiplier: 1.5, randomization: 0.5, max: 10 };

/** latch resolves once `n` calls were made to its hit(). */
const latch = (n: number) => {
  let count = 0;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    reached,
    hit() {
      if (++count === n) open();
      return count;
    },
  };
};

/** intToStr copies ints of `ns` into strs of `ns` (a controller that keeps working). */
const intToStr = (ns: string) =>
  defineController({
    name: 'IntToStr',
    inputs: [input(IntResource, { namespace: ns })],
    outputs: [output(StrResource)],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        for (const i of await rt.list(IntResource, { namespace: ns }))
          await rt.modify(
            StrResource,
            i.metadata.id,
            (s) => {
              s.value = String(i.spec.value);
            },
            { namespace: ns },
          );
        rt.resetBackoff();
      }
    },
  });

const startRuntime = (st: State, opts: ConstructorParameters<typeof Runtime>[1] = {}) => {
  const rt = new Runtime(st, { logger: silentLogger, restartBackoff: FAST, ...opts });
  const ac = new AbortController();
  return { rt, ac, run: () => rt.run({ signal: ac.signal }) };
};

describe('Runtime restarts', () => {
  it('restarts a controller that throws (also synchronously) until it succeeds', async () => {
    const st = wrapCore(newInmemState());
    const runs = latch(4);
    const { rt, ac, run } = startRuntime(st);
    rt.register(
      defineController({
        name: 'Flaky',
        outputs: [output(StrResource)],
        // not async: the first three calls throw before any promise exists
        run(r: ControllerRuntime, { signal }) {
          const n = runs.hit();
          if (n <= 2) throw new Error(`attempt ${n}`);
          if (n === 3) throw 'not even an Error';
          return (async () => {
            for await (const _ of r.events(signal))
              await r.modify(StrResource, 'done', () => ({ value: 'yes' }), { namespace: 'ns' });
          })();
        },
      }),
    );
    const done = run();
    await assertResource(st, StrResource, 'done', (s) => expect(s.spec.value).toBe('yes'), {
      namespace: 'ns',
    });
    expect(rt.metrics().controller_crashes.Flaky).toBe(3);
    ac.abort();
    await done;
  });

  it('keeps running other controllers while one throws forever', async () => {
    const st = wrapCore(newInmemState());
    const runs = latch(10);
    const { rt, ac, run } = startRuntime(st);
    rt.register(
      defineController({
        name: 'Broken',
        async run() {
          runs.hit();
          throw new Error('always');
        },
      }),
    );
    rt.register(intToStr('ns'));
    const done = run();
    await runs.reached;
    await st.create(newInt('ns', 'x', 42));
    await assertResource(st, StrResource, 'x', (s) => expect(s.spec.value).toBe('42'), { namespace: 'ns' });
    expect(rt.metrics().controller_crashes.Broken).toBeGreaterThanOrEqual(9);
    ac.abort();
    await expect(done).resolves.toBeUndefined();
  });

  it('never restarts a controller that returned', async () => {
    const st = wrapCore(newInmemState());
    const { rt, ac, run } = startRuntime(st);
    let calls = 0;
    rt.register(
      defineController({
        name: 'OneShot',
        outputs: [output(IntResource, 'shared')],
        async run(r) {
          calls++;
          await r.create(newInt('once', 'once', calls));
        },
      }),
    );
    rt.register(intToStr('ns'));
    const done = run();
    await assertResource(st, IntResource, 'once', () => {}, { namespace: 'once' });
    // a later wake-up of the runtime does not bring it back
    await st.create(newInt('ns', 'later', 1));
    await assertResource(st, StrResource, 'later', () => {}, { namespace: 'ns' });
    expect(calls).toBe(1);
    expect(rt.metrics().controller_crashes.OneShot).toBeUndefined();
    ac.abort();
    await done;
  });
});

describe('Runtime registration', () => {
  it('rejects a second controller of the same name', () => {
    const rt = new Runtime(wrapCore(newInmemState()), { logger: silentLogger });
    rt.register(intToStr('ns'));
    try {
      rt.register(intToStr('other'));
      throw new Error('expected a failure');
    } catch (e) {
      expect(controllerErrorCode(e)).toBe('already-registered');
      expect((e as Error).message).toBe('controller "IntToStr" already registered');
    }
  });

  it('rolls a conflicting registration back completely', () => {
    const rt = new Runtime(wrapCore(newInmemState()), { logger: silentLogger });
    rt.register(intToStr('ns'));
    const before = rt.dependencyGraph();
    const clash = defineController({
      name: 'Clash',
      inputs: [input(IntResource, { namespace: 'elsewhere' })],
      outputs: [output(IntResource, 'shared'), output(StrResource, 'shared')],
      run: async () => {},
    });
    try {
      rt.register(clash);
      throw new Error('expected a failure');
    } catch (e) {
      expect(controllerErrorCode(e)).toBe('dependency-conflict');
      expect((e as Error).message).toBe(
        `resource "${StrResource.type}" is already managed in exclusive mode by "IntToStr"`,
      );
    }
    expect(rt.dependencyGraph()).toEqual(before);
  });

  it('exports the dependency graph of classic and queue controllers', () => {
    const rt = new Runtime(wrapCore(newInmemState()), { logger: silentLogger });
    rt.register(intToStr('ns'));
    rt.registerQ(
      defineQController({
        name: 'Q',
        inputs: [input(IntResource, { namespace: 'q', kind: 'q-primary' })],
        outputs: [output(IntResource, 'shared')],
        reconcile: async () => {},
      }),
    );
    expect(
      rt.dependencyGraph().edges.map((e) => `${e.edgeType} ${e.controllerName} ${e.resourceNamespace}`),
    ).toEqual(['OutputExclusive IntToStr ', 'OutputShared Q ', 'InputWeak IntToStr ns', 'InputQPrimary Q q']);
  });

  it('can run only once', async () => {
    const { rt, ac, run } = startRuntime(wrapCore(newInmemState()));
    const done = run();
    try {
      await rt.run({ signal: ac.signal });
      throw new Error('expected a failure');
    } catch (e) {
      expect((e as Error).message).toBe('runtime has already been started');
    }
    ac.abort();
    await done;
  });
});

describe('Runtime watches', () => {
  it('stops with "controller runtime watch error" when a watch fails', async () => {
    const base = wrapCore(newInmemState());
    let fail!: (e: Error) => void;
    const failure = new Promise<Error>((resolve) => {
      fail = resolve;
    });
    // a state whose aggregated watches report an error when the test says so
    const st: State = {
      ...base,
      async watchKindAggregated(kind, opts) {
        const inner = await base.watchKindAggregated(kind, opts);
        const stream: WatchStream<StateEvent[]> = {
          close: () => inner.close(),
          async *[Symbol.asyncIterator]() {
            yield [{ type: 'errored', error: await failure }];
          },
        };
        return stream;
      },
    };
    const { rt, run } = startRuntime(st);
    rt.register(intToStr('ns'));
    const done = run();
    fail(new Error('buffer overrun: namespace "ns" type "x"'));
    await expect(done).rejects.toThrow(
      'controller runtime watch error: buffer overrun: namespace "ns" type "x"',
    );
  });

  it('a QController mapping to a non-primary pointer fails that item, not the process', async () => {
    const st = wrapCore(newInmemState());
    const errors: string[] = [];
    const seen = latch(1);
    const logger: Logger = {
      ...silentLogger,
      error: (msg, fields) => {
        errors.push(`${msg}: ${String(fields?.error)}`);
        seen.hit();
      },
    };
    const { rt, ac, run } = startRuntime(st, { logger });
    rt.registerQ(
      defineQController({
        name: 'BadMapper',
        inputs: [
          input(IntResource, { namespace: 'ns', kind: 'q-primary' }),
          input(StrResource, { namespace: 'ns', kind: 'q-mapped' }),
        ],
        reconcile: async () => {},
        mapInput: (_rt, md) => [StrResource.pointer(md.id, 'ns')],
      }),
    );
    const done = run();
    await st.create(StrResource.new('ns', 's'));
    await seen.reached;
    expect(errors[0]).toContain('which is not a primary input');
    expect(rt.metrics().qcontroller_crashes.BadMapper).toBeGreaterThanOrEqual(1);
    ac.abort();
    await expect(done).resolves.toBeUndefined();
  });
});

describe('Runtime shutdown', () => {
  it('leaves no timers and no listeners behind', async () => {
    const timers = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate').length;
    const baseline = timers();
    const st = wrapCore(newInmemState());
    const crashed = latch(1);
    const requeued = latch(1);
    const limited = latch(1);
    const { rt, ac, run } = startRuntime(st, {
      restartBackoff: { initial: 3_600_000, max: 3_600_000 }, // a pending hour-long restart
      changeRateLimit: { rate: 0.0001, burst: 1 }, // a second write waits for hours
    });
    rt.register(
      defineController({
        name: 'Crashing',
        async run() {
          crashed.hit();
          throw new Error('boom');
        },
      }),
    );
    rt.register(
      defineController({
        name: 'Limited',
        outputs: [output(StrResource)],
        async run(r) {
          await r.create(StrResource.new('ns', 'first'));
          limited.hit();
          await r.create(StrResource.new('ns', 'second'));
        },
      }),
    );
    rt.registerQ(
      defineQController({
        name: 'Requeueing',
        inputs: [input(IntResource, { namespace: 'ns', kind: 'q-primary' })],
        reconcile: async () => {
          requeued.hit();
          throw new RequeueError(3_600_000);
        },
      }),
    );
    const done = run();
    await st.create(newInt('ns', 'x', 1));
    await Promise.all([crashed.reached, requeued.reached, limited.reached]);
    expect(timers()).toBeGreaterThan(baseline);
    ac.abort();
    await done;
    expect(timers()).toBe(baseline);
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
  });
});

describe('Runtime start-up', () => {
  it('starts a controller registered while run is establishing watches exactly once', async () => {
    const st = wrapCore(newInmemState());
    const { rt, ac, run } = startRuntime(st);
    rt.register(intToStr('ns'));
    let runs = 0;
    const done = run(); // run is now awaiting its watches
    rt.register(
      defineController({
        name: 'Counted',
        inputs: [input(StrResource, { namespace: 'ns' })],
        outputs: [output(IntResource, 'shared')],
        async run(r, { signal }) {
          runs++;
          for await (const _ of r.events(signal)) {
            const strs = await r.list(StrResource, { namespace: 'ns' });
            await r.modify(IntResource, 'strs', () => ({ value: strs.length }), { namespace: 'counted' });
          }
        },
      }),
    );
    await st.create(newInt('ns', 'a', 1));
    await assertResource(st, IntResource, 'strs', (r) => expect(r.spec.value).toBe(1), {
      namespace: 'counted',
    });
    expect(runs).toBe(1);
    ac.abort();
    await done;
  });
});

describe('Runtime fairness', () => {
  /** busy holds the thread for `ms`, as a reconcile doing real work does */
  const busy = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {}
  };

  it('lets I/O run between reconciles: a burst of reconciles does not hold a connection back', async () => {
    const { createServer, connect } = await import('node:net');
    const order: string[] = [];
    const server = createServer((s) => {
      order.push('accepted');
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    let client: ReturnType<typeof connect> | undefined;
    /** the first reconcile to run opens a connection: the server can take it at the next turn */
    const reconcile = (what: string) => {
      client ??= connect(port, '127.0.0.1');
      busy(5);
      order.push(what);
    };

    const st = wrapCore(newInmemState());
    const { rt, ac, run } = startRuntime(st);
    const N = 20;
    const all = latch(N + 5);
    for (let i = 0; i < N; i++)
      rt.register(
        defineController({
          name: `Busy${i}`,
          async run(r, { signal }) {
            for await (const _ of r.events(signal)) {
              reconcile('reconcile');
              all.hit();
            }
          },
        }),
      );
    rt.registerQ(
      defineQController({
        name: 'BusyQ',
        inputs: [input(IntResource, { namespace: 'q', kind: 'q-primary' })],
        async reconcile() {
          reconcile('q');
          all.hit();
        },
      }),
    );
    for (let i = 0; i < 5; i++) await st.create(newInt('q', `i${i}`, i));
    const done = run();
    await all.reached;
    await new Promise((r) => setTimeout(r, 50));
    client?.destroy();
    server.close();
    ac.abort();
    await done;
    expect(order.filter((o) => o === 'reconcile')).toHaveLength(N);
    expect(order.filter((o) => o === 'q')).toHaveLength(5);
    // the connection was taken after a few reconciles, not after the whole burst
    const accepted = order.indexOf('accepted');
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(5);
  });
});
