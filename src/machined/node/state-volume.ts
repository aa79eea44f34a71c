// The node's side of the STATE partition: machined asks for it to be mounted at the state directory
// (/system/state) and, once it is, either boots from the config it holds (a node still waiting in
// maintenance mode leaves it, as upstream's acquisition takes STATE first) or stores the node's active
// config on it, so the next boot finds it. Controllers find, make and mount the volume; this only asks and
// reads.
import { join } from 'node:path';
import { BLOCK_NAMESPACE, VolumeMountRequest, VolumeMountStatus } from '../../../resources/block/index.js';
import { parseConfig } from '../../api/machine-stateful/index.js';
import { encode } from '../../config/index.js';
import type { State } from '../../cosi/state/state.js';
import type { NodeConfigHost } from './config-host.js';
import { completeForBoot } from './config-host.js';
import { CONFIG_FILE, persistConfig, readPersistedConfig } from './config-store.js';

export const STATE_VOLUME_ID = 'STATE';
export const STATE_MOUNT_REQUEST_ID = 'machined-STATE';
export const STATE_REQUESTER = 'machined';

export interface StateVolumeOptions {
  readonly state: State;
  readonly host: NodeConfigHost;
  readonly log: (line: string) => void;
  readonly signal: AbortSignal;
  /** told each time the active config is found kept on a mounted STATE (stored now, or already there) */
  readonly onStored?: () => void;
}

/** followStateVolume asks for STATE's mount and acts on each (re)mount until the signal ends it. */
export async function followStateVolume(opts: StateVolumeOptions): Promise<void> {
  const { state, host, log, signal } = opts;
  await state.modify(
    VolumeMountRequest.new(BLOCK_NAMESPACE, STATE_MOUNT_REQUEST_ID),
    (r) => {
      r.spec = { volumeID: STATE_VOLUME_ID, requester: STATE_REQUESTER, readOnly: false, detached: false };
    },
    { signal },
  );
  let last = '';
  try {
    for await (const ev of await state.watch(
      VolumeMountStatus.pointer(STATE_MOUNT_REQUEST_ID, BLOCK_NAMESPACE),
      {
        signal,
      },
    )) {
      if (ev.type !== 'created' && ev.type !== 'updated') {
        if (ev.type === 'destroyed') last = '';
        continue;
      }
      const target = (ev.resource as VolumeMountStatus).spec.target;
      if (target === last) continue;
      last = target;
      log(`STATE mounted at ${target}`);
      if (onStateMounted(target, host, log)) opts.onStored?.();
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
}

/**
 * onStateMounted boots from STATE's config in maintenance mode, else stores the active config there; true
 * when STATE then holds the active config.
 */
export function onStateMounted(dir: string, host: NodeConfigHost, log: (line: string) => void): boolean {
  let stored: string | undefined;
  try {
    stored = readPersistedConfig(dir);
  } catch (e) {
    log(`config: STATE: ${(e as Error).message}`);
  }
  if (host.maintenance()) {
    if (stored === undefined) return false;
    try {
      const { cfg } = parseConfig(Buffer.from(stored), host.validationMode);
      if (!completeForBoot(cfg)) {
        log('config: STATE holds a config not complete for boot: staying in maintenance mode');
        return false;
      }
      return host.adopt(cfg, 'STATE');
    } catch (e) {
      log(
        `config: STATE's ${CONFIG_FILE} is not valid, staying in maintenance mode: ${(e as Error).message}`,
      );
    }
    return false;
  }
  const active = host.active();
  if (!active) return false;
  const text = encode(active);
  if (stored === text) return true;
  try {
    persistConfig(dir, text);
    log(`config: stored on STATE (${join(dir, CONFIG_FILE)})`);
    return true;
  } catch (e) {
    log(`config: could not store on STATE: ${(e as Error).message}`);
    return false;
  }
}
