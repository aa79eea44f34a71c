// cluster.NodeIdentityController: an identity made the first time STATE is mounted, kept there in the
// durable store, read back by the next run (a reboot) and new on another (wiped) STATE.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  loadOrMakeIdentity,
  NODE_IDENTITY_CONTROLLER,
  newNodeId,
  nodeIdentityController,
  STATE_STORE_DIR,
} from '../../../controllers/cluster/node-identity.js';
import { BLOCK_NAMESPACE, VolumeMountStatus } from '../../../resources/block/index.js';
import { CLUSTER_NAMESPACE, Identity, LOCAL_IDENTITY } from '../../../resources/cluster/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const stateDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'keel-identity-'));
  onTestFinished(() => rmSync(d, { recursive: true, force: true }));
  return d;
};

describe('newNodeId', () => {
  it('is 43 base62 characters, and different each time', () => {
    expect(newNodeId(Buffer.alloc(32))).toBe('0'.repeat(43));
    expect(newNodeId(Buffer.alloc(32, 0xff))).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(newNodeId()).not.toBe(newNodeId());
  });
});

describe('cluster.NodeIdentityController', () => {
  const mounted = (target: string) =>
    VolumeMountStatus.new(BLOCK_NAMESPACE, 'machined-STATE', {
      volumeID: 'STATE',
      requester: 'machined',
      target,
      readOnly: false,
      detached: false,
    });

  async function identityOf(dir: string): Promise<string> {
    const env = startRuntime([nodeIdentityController()]);
    try {
      await env.state.create(mounted(dir));
      let id = '';
      await assertResource(
        env.state,
        Identity,
        LOCAL_IDENTITY,
        (r) => {
          expect(r.metadata.owner).toBe(NODE_IDENTITY_CONTROLLER);
          expect(r.spec.nodeId).toMatch(/^[0-9A-Za-z]{43}$/);
          id = r.spec.nodeId;
        },
        { namespace: CLUSTER_NAMESPACE, timeoutMs: 10_000 },
      );
      return id;
    } finally {
      await env.stop();
    }
  }

  it('makes the identity once, keeps it on STATE, and reads it back after a restart', async () => {
    const dir = stateDir();
    const first = await identityOf(dir);
    expect(existsSync(join(dir, STATE_STORE_DIR, 'ns-cluster'))).toBe(true);
    expect(await identityOf(dir)).toBe(first);
    expect(await loadOrMakeIdentity(dir, () => 'never')).toEqual({ nodeId: first, made: false });
    // a wiped STATE is another node
    expect(await identityOf(stateDir())).not.toBe(first);
  });
});
