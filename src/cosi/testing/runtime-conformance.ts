// runtimeConformance: the one controller-runtime test suite every State backend must pass
// (in-memory, namespaced, durable, gRPC client ↔ server), after upstream's RuntimeSuite.
import { describe } from 'vitest';
import {
  defineRuntimeTest,
  type RuntimeConformanceFactory,
  type RuntimeConformanceOptions,
} from './internal/runtime-env.js';
import { runtimeGenericTests } from './internal/runtime-generic-tests.js';
import { runtimeTests } from './internal/runtime-tests.js';

export type {
  RuntimeConformanceFactory,
  RuntimeConformanceOptions,
  RuntimeConformanceSetup,
} from './internal/runtime-env.js';

/**
 * runtimeConformance registers the suite against a backend. The factory runs once per test; each
 * test uses its own namespaces, never sleeps and waits only on watches, so one backend may serve
 * every test. Options run the same suite with the runtime's cache or a change rate limit.
 */
export function runtimeConformance(
  name: string,
  factory: RuntimeConformanceFactory,
  opts: RuntimeConformanceOptions = {},
): void {
  describe(`runtime conformance: ${name}`, () => {
    const test = defineRuntimeTest(factory, opts);
    runtimeTests(test);
    runtimeGenericTests(test);
  });
}
