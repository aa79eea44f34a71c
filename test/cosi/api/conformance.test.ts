// State and runtime conformance suites, unchanged, over grpcCoreState ↔ addStateService on loopback TCP.
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { runtimeConformance } from '../../../src/cosi/testing/runtime-conformance.js';
import { stateConformance } from '../../../src/cosi/testing/state-conformance.js';
import { pair } from './harness.js';

stateConformance('grpc', async () => {
  const p = await pair();
  return { state: p.remote, cleanup: async () => p.close() };
});

// The controller runtime over a remote state: watches, bookmarks and teardowns all cross the wire.
runtimeConformance('grpc', async () => {
  const p = await pair();
  return { state: wrapCore(p.remote), cleanup: async () => p.close() };
});
