// The per-test environment of the state conformance suite: a fresh namespace on a (possibly shared) backend.
import { it, onTestFinished } from 'vitest';
import type { Kind } from '../../resource/kind.js';
import type { CoreState, WatchKindOptions } from '../../state/core.js';
import type { State } from '../../state/state.js';
import { wrapCore } from '../../state/wrap.js';
import { PathResource } from '../resources.js';
import { type EventReader, eventReader } from '../watch-reader.js';

export interface ConformanceSetup {
  state: CoreState;
  /** the namespace to use when the backend serves only one; it must then be fresh for each test */
  namespace?: string;
  cleanup?: () => Promise<void>;
}

export type ConformanceFactory = (ctx: { signal: AbortSignal }) => Promise<ConformanceSetup>;

export interface ConformanceOptions {
  /** false: the backend must reject tail events as unsupported (default true) */
  supportsTailEvents?: boolean;
}

export interface Env {
  readonly st: State;
  readonly ns: string;
  /** aborted when the test ends, which ends every watch it opened */
  readonly signal: AbortSignal;
  readonly opts: Required<ConformanceOptions>;
  /** the PathResource kind in this test's namespace */
  readonly kind: Kind;
  path(id: string): PathResource;
  /** watchKind, or watchKindAggregated flattened, as one reader */
  watchKind(aggregated: boolean, opts?: WatchKindOptions): Promise<EventReader>;
}

export type Define = (title: string, body: (env: Env) => Promise<void>) => void;

// Namespaces are unique per process run, so suites may share one backend.
const RUN = Math.random().toString(36).slice(2, 8);
let seq = 0;

/** defineWith registers one test that gets its own namespace and a signal that ends with it. */
export function defineWith(factory: ConformanceFactory, options: ConformanceOptions): Define {
  const opts: Required<ConformanceOptions> = { supportsTailEvents: options.supportsTailEvents ?? true };
  return (title, body) =>
    it(title, async ({ signal: testSignal }) => {
      const ctrl = new AbortController();
      const onAbort = (): void => ctrl.abort(testSignal.reason);
      testSignal.addEventListener('abort', onAbort, { once: true });
      const setup = await factory({ signal: ctrl.signal });
      onTestFinished(async () => {
        ctrl.abort();
        testSignal.removeEventListener('abort', onAbort);
        await setup.cleanup?.();
      });
      const ns = setup.namespace ?? `conformance-${RUN}-${++seq}`;
      const st = wrapCore(setup.state);
      const kind: Kind = { namespace: ns, type: PathResource.type };
      const signal = ctrl.signal;
      await body({
        st,
        ns,
        signal,
        opts,
        kind,
        path: (id) => PathResource.new(ns, id),
        watchKind: async (aggregated, o) =>
          eventReader(
            aggregated
              ? await st.watchKindAggregated(kind, { signal, ...o })
              : await st.watchKind(kind, { signal, ...o }),
          ),
      });
    });
}

/** failure resolves with what `p` rejects with, and fails the test if it resolves. */
export async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the operation to fail, but it succeeded');
}
