// STATE as the node uses it: once mounted, a node in maintenance mode boots from the config STATE holds
// (and stays in maintenance when it holds nothing usable), and a configured node stores its active config
// there; followStateVolume asks for the mount and acts on the mount controller's status.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BLOCK_NAMESPACE,
  registerBlockResources,
  VolumeMountRequest,
  VolumeMountStatus,
} from '../../../resources/block/index.js';
import { CONFIG_NAMESPACE, registerConfigResources } from '../../../resources/config/index.js';
import { type Config, encode, generateConfigs, mintSecrets } from '../../../src/config/index.js';
import { registerDefault, registerNamespace } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { nodeConfigHost } from '../../../src/machined/node/config-host.js';
import { CONFIG_FILE } from '../../../src/machined/node/config-store.js';
import {
  followStateVolume,
  onStateMounted,
  STATE_MOUNT_REQUEST_ID,
} from '../../../src/machined/node/state-volume.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'keel-statevol-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

let config: Config | undefined;
const aConfig = async () => {
  config ??= generateConfigs({
    clusterName: 'c',
    endpoint: 'https://10.5.0.2:6443',
    secrets: await mintSecrets(),
  }).controlplane;
  return config;
};

async function newState(): Promise<State> {
  const state = wrapCore(newInmemState());
  await registerDefault(state);
  await registerNamespace(state, CONFIG_NAMESPACE, 'config');
  await registerNamespace(state, BLOCK_NAMESPACE, 'runtime');
  await registerConfigResources(state);
  await registerBlockResources(state);
  return state;
}

const hostOn = async (state: State, initial?: Config, log: string[] = []) =>
  nodeConfigHost({
    state,
    stateDir: tempDir(),
    validationMode: 'metal',
    ...(initial ? { initial } : {}),
    reboot: () => {},
    log: (l) => log.push(l),
  });

describe('onStateMounted', () => {
  it('boots a node in maintenance mode from the config STATE holds', async () => {
    const cfg = await aConfig();
    const dir = tempDir();
    writeFileSync(join(dir, CONFIG_FILE), encode(cfg));
    const log: string[] = [];
    const host = await hostOn(await newState(), undefined, log);
    onStateMounted(dir, host, (l) => log.push(l));
    expect(host.maintenance()).toBe(false);
    expect(encode(await host.received)).toBe(encode(cfg));
    expect(log).toContain('config: loaded from STATE');
  });

  it('stays in maintenance mode when STATE holds nothing usable, and says why', async () => {
    const log: string[] = [];
    const host = await hostOn(await newState());
    const empty = tempDir();
    onStateMounted(empty, host, (l) => log.push(l));
    expect(host.maintenance()).toBe(true);

    const broken = tempDir();
    writeFileSync(join(broken, CONFIG_FILE), 'version: v1alpha1\nmachine: [not, a, map\n');
    onStateMounted(broken, host, (l) => log.push(l));
    expect(host.maintenance()).toBe(true);
    expect(log.at(-1)).toMatch(/^config: STATE's config\.yaml is not valid, staying in maintenance mode: /);
  });

  it('stores the active config of a configured node, once', async () => {
    const cfg = await aConfig();
    const host = await hostOn(await newState(), cfg);
    const dir = tempDir();
    const log: string[] = [];
    expect(onStateMounted(dir, host, (l) => log.push(l))).toBe(true);
    expect(readFileSync(join(dir, CONFIG_FILE), 'utf8')).toBe(encode(cfg));
    // kept already: still true, so an install waiting for the config on STATE goes on
    expect(onStateMounted(dir, host, (l) => log.push(l))).toBe(true);
    expect(log.filter((l) => l.startsWith('config: stored on STATE'))).toHaveLength(1);
  });
});

describe('followStateVolume', () => {
  it('asks for STATE and stores the config where the mount controller mounted it', async () => {
    const cfg = await aConfig();
    const state = await newState();
    const host = await hostOn(state, cfg);
    const ac = new AbortController();
    const following = followStateVolume({ state, host, log: () => {}, signal: ac.signal });
    const req = (await state.watchFor(VolumeMountRequest.pointer(STATE_MOUNT_REQUEST_ID, BLOCK_NAMESPACE), {
      signal: AbortSignal.timeout(5_000),
      eventTypes: ['created'],
    })) as VolumeMountRequest;
    expect(req.spec).toMatchObject({ volumeID: 'STATE', requester: 'machined', readOnly: false });

    const dir = tempDir();
    await state.create(
      VolumeMountStatus.new(BLOCK_NAMESPACE, STATE_MOUNT_REQUEST_ID, {
        volumeID: 'STATE',
        requester: 'machined',
        target: dir,
        readOnly: false,
        detached: false,
      }),
    );
    for (
      const deadline = Date.now() + 5_000;
      Date.now() < deadline;
      await new Promise((r) => setImmediate(r))
    ) {
      try {
        if (readFileSync(join(dir, CONFIG_FILE), 'utf8') === encode(cfg)) break;
      } catch {}
    }
    expect(readFileSync(join(dir, CONFIG_FILE), 'utf8')).toBe(encode(cfg));
    ac.abort();
    await following;
  });
});
