// cluster.NodeIdentityController: the node's identity (Identity `local`), a random id made the first time
// STATE is mounted and kept there in a durable store, so every later boot reads the same one; a wipe of
// STATE makes a new one. Without STATE (a live boot) there is no identity to keep, and none is published.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { VolumeMountStatus } from '../../resources/block/index.js';
import { CLUSTER_NAMESPACE, Identity, LOCAL_IDENTITY } from '../../resources/cluster/index.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { Resource } from '../../src/cosi/resource/resource.js';
import { namespaceDir, newDurableStore } from '../../src/cosi/state/durable/index.js';

export const NODE_IDENTITY_CONTROLLER = 'cluster.NodeIdentityController';
/** where on STATE the durable stores live, one directory per namespace */
export const STATE_STORE_DIR = 'cosi';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** newNodeId is 32 random bytes in base62 (43 characters), as upstream's node ids are. */
export function newNodeId(bytes: Uint8Array = randomBytes(32)): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(43, '0');
}

/** loadOrMakeIdentity reads the identity kept under `stateDir`, making and storing one when there is none. */
export async function loadOrMakeIdentity(
  stateDir: string,
  make: () => string = () => newNodeId(),
): Promise<{ nodeId: string; made: boolean }> {
  const store = newDurableStore({
    dir: join(stateDir, STATE_STORE_DIR, namespaceDir(CLUSTER_NAMESPACE)),
    registry: defaultRegistry,
    namespace: CLUSTER_NAMESPACE,
  });
  try {
    let found: string | undefined;
    await store.load((r: Resource) => {
      if (r.metadata.type === Identity.type && r.metadata.id === LOCAL_IDENTITY)
        found = (r.spec as { nodeId?: string }).nodeId;
    });
    if (found) return { nodeId: found, made: false };
    const nodeId = make();
    await store.put(Identity.new(CLUSTER_NAMESPACE, LOCAL_IDENTITY, { nodeId }));
    return { nodeId, made: true };
  } finally {
    // closed at once: an open store would keep STATE busy when it is to be unmounted (reset, shutdown)
    await store.close();
  }
}

export function nodeIdentityController(): Controller {
  return defineController({
    name: NODE_IDENTITY_CONTROLLER,
    inputs: [input(VolumeMountStatus)],
    outputs: [output(Identity, 'exclusive')],
    async run(rt, { signal, logger }) {
      let readFrom = '';
      for await (const _ of rt.events(signal)) {
        const state = (await rt.list(VolumeMountStatus, { signal })).find(
          (r) => r.spec.volumeID === 'STATE' && !r.spec.readOnly,
        );
        if (!state || state.spec.target === readFrom) {
          rt.resetBackoff();
          continue;
        }
        const { nodeId, made } = await loadOrMakeIdentity(state.spec.target);
        readFrom = state.spec.target;
        if (made) logger.info('node identity made and kept on STATE', { nodeId });
        await rt.modify(
          Identity,
          LOCAL_IDENTITY,
          (s) => {
            s.nodeId = nodeId;
          },
          { signal },
        );
        rt.resetBackoff();
      }
    },
  });
}
