// The per-test environment of the runtime conformance suite: fresh namespaces, a runtime that is
// stopped (and checked) when the test ends, and watch-based waits.
import { expect, it, onTestFinished } from 'vitest';
import type { Controller } from '../../controller/controller.js';
import { silentLogger } from '../../controller/logger.js';
import type { RuntimeOptions } from '../../controller/options.js';
import type { QController } from '../../controller/qcontroller.js';
import { Runtime } from '../../controller/runtime.js';
import type { Kind } from '../../resource/kind.js';
import type { Resource } from '../../resource/resource.js';
import type { ResourceType, TypedResource } from '../../resource/typed.js';
import type { State } from '../../state/state.js';

export interface RuntimeConformanceSetup {
  state: State;
  cleanup?: () => Promise<void>;
}

export type RuntimeConformanceFactory = (ctx: { signal: AbortSignal }) => Promise<RuntimeConformanceSetup>;

export interface RuntimeConformanceOptions {
  /** serve every kind a test names from the runtime's cache (upstream runs the suite this way too) */
  cached?: boolean;
  /** a per-controller change rate limit for every runtime */
  changeRateLimit?: RuntimeOptions['changeRateLimit'];
}

export interface RuntimeEnv {
  readonly st: State;
  /** aborted when the test ends */
  readonly signal: AbortSignal;
  /** ns gives a namespace unique to this test */
  ns(name: string): string;
  /**
   * start builds a runtime (cached kinds as the options say), registers the controllers and runs
   * it until the test ends; the test fails if run rejects.
   */
  start(controllers: ReadonlyArray<Controller | QController>, kinds?: readonly Kind[]): Runtime;
  /** runtime builds a runtime without starting it. */
  runtime(kinds?: readonly Kind[]): Runtime;
  /** run starts a runtime built by runtime(). */
  run(rt: Runtime): void;
  /** values resolves once the kind holds exactly these ids with these values. */
  values<S>(
    type: ResourceType<S>,
    ns: string,
    want: Record<string, unknown>,
    pick: (r: TypedResource<S>) => unknown,
  ): Promise<void>;
  /** until resolves once the kind satisfies `check` (which throws until it does). */
  until<S>(
    type: ResourceType<S>,
    ns: string,
    check: (items: ReadonlyMap<string, TypedResource<S>>) => void,
  ): Promise<void>;
}

export type DefineRuntimeTest = (title: string, body: (env: RuntimeEnv) => Promise<void>) => void;

// Namespaces are unique per process run, so suites may share one backend.
const RUN = Math.random().toString(36).slice(2, 8);
let seq = 0;

const TIMEOUT_MS = 20_000;

/** Small restart backoff: failing controllers come back within milliseconds. */
const FAST_BACKOFF = { initial: 2, multiplier: 1.5, randomization: 0.5, max: 50 } as const;

export function defineRuntimeTest(
  factory: RuntimeConformanceFactory,
  opts: RuntimeConformanceOptions,
): DefineRuntimeTest {
  return (title, body) =>
    it(title, async ({ signal: testSignal }) => {
      const ctrl = new AbortController();
      const onAbort = (): void => ctrl.abort(testSignal.reason);
      testSignal.addEventListener('abort', onAbort, { once: true });
      const setup = await factory({ signal: ctrl.signal });
      const runs: Promise<void>[] = [];
      onTestFinished(async () => {
        ctrl.abort();
        testSignal.removeEventListener('abort', onAbort);
        // every runtime must stop cleanly: run resolves, it does not reject
        await expect(Promise.all(runs)).resolves.toBeDefined();
        await setup.cleanup?.();
      });
      const id = `rt-${RUN}-${++seq}`;
      const st = setup.state;
      const signal = ctrl.signal;
      const runtime = (kinds: readonly Kind[] = []) =>
        new Runtime(st, {
          logger: silentLogger,
          restartBackoff: FAST_BACKOFF,
          ...(opts.cached ? { cachedResources: kinds } : {}),
          ...(opts.changeRateLimit ? { changeRateLimit: opts.changeRateLimit } : {}),
        });
      const run = (rt: Runtime) => {
        runs.push(rt.run({ signal }));
      };
      const until: RuntimeEnv['until'] = (type, ns, check) => converge(st, type, ns, check, signal);
      await body({
        st,
        signal,
        ns: (name) => `${id}-${name}`,
        runtime,
        run,
        start(controllers, kinds) {
          const rt = runtime(kinds);
          for (const c of controllers) {
            if (c.flavor === 'controller') rt.register(c);
            else rt.registerQ(c);
          }
          run(rt);
          return rt;
        },
        until,
        values: (type, ns, want, pick) =>
          until(type, ns, (items) => {
            const got = Object.fromEntries([...items].map(([id, r]) => [id, pick(r)]));
            expect(got).toEqual(want);
          }),
      });
    });
}

/**
 * converge watches a kind (contents first) and re-runs `check` on the whole kind after every
 * event; it resolves when the check passes and fails with the last failure on timeout.
 */
async function converge<S>(
  st: State,
  type: ResourceType<S>,
  namespace: string,
  check: (items: ReadonlyMap<string, TypedResource<S>>) => void,
  parent: AbortSignal,
): Promise<void> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  const onParent = () => ctrl.abort(parent.reason);
  parent.addEventListener('abort', onParent, { once: true });
  const items = new Map<string, TypedResource<S>>();
  let bootstrapped = false;
  let last: unknown = new Error(`${type.type}(${namespace}): no event arrived`);
  try {
    const stream = await st.watchKind(
      { namespace, type: type.type },
      { signal: ctrl.signal, bootstrapContents: true },
    );
    try {
      for await (const ev of stream) {
        if (ev.type === 'errored') throw ev.error;
        if (ev.type === 'bootstrapped') bootstrapped = true;
        else if (ev.type === 'created' || ev.type === 'updated')
          items.set(ev.resource.metadata.id, typed(type, ev.resource));
        else if (ev.type === 'destroyed') items.delete(ev.resource.metadata.id);
        if (!bootstrapped) continue;
        try {
          check(items);
          return;
        } catch (e) {
          last = e;
        }
      }
    } finally {
      stream.close();
    }
    throw last;
  } catch (e) {
    throw ctrl.signal.aborted ? last : e;
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onParent);
  }
}

const typed = <S>(type: ResourceType<S>, r: Resource): TypedResource<S> => {
  if (!type.is(r)) throw new Error(`watch of ${type.type} delivered a foreign resource`);
  return r.deepCopy();
};
