// The controller-runtime conformance suite over states that write through durable stores.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { durableNamespaces, newDurableStore } from '../../../../src/cosi/state/durable/index.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { namespaced } from '../../../../src/cosi/state/namespaced.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { runtimeConformance } from '../../../../src/cosi/testing/runtime-conformance.js';

// The suite's resource types register themselves in the default registry, which the stores use.
import '../../../../src/cosi/testing/resources.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'cosi-durable-runtime-'));

runtimeConformance('inmem over a durable store', async () => {
  const dir = await tempDir();
  const store = newDurableStore({ dir, compactEvery: 16 });
  return {
    state: wrapCore(newInmemState({ backingStore: store })),
    // Runs only after every runtime of the test stopped, so no write races the close.
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

runtimeConformance(
  'namespaced inmem over durable namespaces, cached',
  async () => {
    const root = await tempDir();
    const durable = durableNamespaces({ root });
    return {
      state: wrapCore(namespaced((ns) => newInmemState({ backingStore: durable.storeFor(ns) }))),
      cleanup: async () => {
        await durable.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  },
  { cached: true },
);
