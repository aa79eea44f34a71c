// The state conformance suite over the in-memory state writing through durable stores.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { durableNamespaces, newDurableStore } from '../../../../src/cosi/state/durable/index.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { namespaced } from '../../../../src/cosi/state/namespaced.js';
import { stateConformance } from '../../../../src/cosi/testing/state-conformance.js';

// The suite's resource types register themselves in the default registry, which the stores use.
import '../../../../src/cosi/testing/resources.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'cosi-durable-conformance-'));

stateConformance('inmem over a durable store', async () => {
  const dir = await tempDir();
  const store = newDurableStore({ dir });
  return {
    state: newInmemState({ backingStore: store }),
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

// Compacting every few records puts log rotations and snapshots in the middle of every test.
stateConformance('inmem over a durable store compacting every 3 records', async () => {
  const dir = await tempDir();
  const store = newDurableStore({ dir, compactEvery: 3 });
  return {
    state: newInmemState({ backingStore: store }),
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

stateConformance('namespaced inmem over durable namespaces', async () => {
  const root = await tempDir();
  const durable = durableNamespaces({ root });
  return {
    state: namespaced((ns) => newInmemState({ backingStore: durable.storeFor(ns) })),
    cleanup: async () => {
      await durable.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});
