// Test helpers for the secrets controllers: a runtime on in-memory state, a hand-driven clock, a
// freshly minted cluster config, and the node identity inputs.
import { CERT_NODE_ADDRESS_ID, type SecretsClock } from '../../../controllers/secrets/index.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { HostnameStatus, NodeAddress } from '../../../resources/network/index.js';
import { type Config, generateConfigs, mintSecrets } from '../../../src/config/index.js';
import { type Controller, type Logger, Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';

const FAST = { initial: 1, multiplier: 1.5, randomization: 0.5, max: 10 };

export interface RuntimeEnv {
  readonly state: State;
  stop(): Promise<void>;
}

/** startRuntime runs the controllers on a fresh in-memory state until stop(), logging to `logger`. */
export function startRuntime(controllers: readonly Controller[], logger: Logger = silentLogger): RuntimeEnv {
  const state = wrapCore(newInmemState());
  const rt = new Runtime(state, { logger, restartBackoff: FAST });
  for (const c of controllers) rt.register(c);
  const ac = new AbortController();
  const done = rt.run({ signal: ac.signal });
  return {
    state,
    async stop() {
      ac.abort();
      await done;
    },
  };
}

/** FakeClock is a clock tests move by hand; due timers fire on advance(). */
export interface FakeClock extends SecretsClock {
  advance(ms: number): void;
  /** pending is the number of armed timers */
  pending(): number;
  /** armed resolves once at least n timers are pending (checked whenever one is armed) */
  armed(n: number): Promise<void>;
}

export function fakeClock(start = new Date()): FakeClock {
  let now = start.getTime();
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const waiters = new Set<{ n: number; resolve: () => void }>();
  const wake = () => {
    for (const w of waiters)
      if (timers.size >= w.n) {
        waiters.delete(w);
        w.resolve();
      }
  };
  return {
    now: () => new Date(now),
    schedule(ms, fn) {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      wake();
      return () => timers.delete(id);
    },
    advance(ms) {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        timers.delete(id);
        t.fn();
      }
    },
    pending: () => timers.size,
    armed: (n) =>
      new Promise<void>((resolve) => {
        waiters.add({ n, resolve });
        wake();
      }),
  };
}

export interface Cluster {
  readonly controlplane: Config;
  readonly worker: Config;
}

/** mintCluster mints a secrets bundle and the controlplane and worker configs of one cluster. */
export async function mintCluster(): Promise<Cluster> {
  const secrets = await mintSecrets();
  return generateConfigs({
    clusterName: 'demo',
    endpoint: 'https://cp.example.com:6443',
    secrets,
    additionalSANs: ['10.9.9.9', 'api.example.com'],
  });
}

export const machineConfig = (cfg: Config) => MachineConfig.new('config', 'v1alpha1', cfg);

export const hostname = (h: string, d = '') =>
  HostnameStatus.new('network', 'hostname', { hostname: h, domainname: d });

export const nodeAddresses = (...addresses: string[]) =>
  NodeAddress.new('network', CERT_NODE_ADDRESS_ID, { addresses });
