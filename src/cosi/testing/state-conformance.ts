// stateConformance: the one State test suite every backend must pass (in-memory, namespaced, durable, gRPC).
import { describe } from 'vitest';
import { crudTests } from './internal/crud.js';
import { type ConformanceFactory, type ConformanceOptions, defineWith } from './internal/env.js';
import { lifecycleTests } from './internal/lifecycle.js';
import { watchTests } from './internal/watch.js';

export type { ConformanceFactory, ConformanceOptions, ConformanceSetup } from './internal/env.js';

/**
 * stateConformance registers upstream's StateSuite against a backend. The factory runs once per
 * test; each test works in its own namespace (unless the setup names one), never sleeps, and
 * waits only on watches, so one backend may serve many tests and suites.
 */
export function stateConformance(
  name: string,
  factory: ConformanceFactory,
  opts: ConformanceOptions = {},
): void {
  describe(`state conformance: ${name}`, () => {
    const test = defineWith(factory, opts);
    crudTests(test);
    watchTests(test);
    lifecycleTests(test);
  });
}
