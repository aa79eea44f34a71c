// apid as a supervised in-process service: the normal-mode API with mutual TLS, served once the secrets
// controllers have minted its certificate, rotated whenever they re-issue it.
import { hostname } from 'node:os';
import type { HandlerMap } from '../../api/handlers.js';
import { startApiServer } from '../../api/server.js';
import type { PlatformInfo, VersionInfo } from '../../api/version.js';
import type { State } from '../../cosi/state/state.js';
import { inProcessRunner, type ServiceDefinition } from '../services/index.js';
import { followIdentity, waitForIdentity } from './api-identity.js';
import { nodeAddresses } from './console-hint.js';

export const APID_SERVICE = 'apid';

export interface ApidServiceOptions {
  readonly state: State;
  readonly address: () => string;
  readonly handlers: HandlerMap;
  readonly version?: VersionInfo;
  /** what Version reports as the platform (the health check's size checks leave container nodes out) */
  readonly platform?: PlatformInfo;
  /** told once the API has gone quiet after its clients */
  readonly onQuiet?: () => void;
  /** told the bound address once the port listens */
  readonly onListening: (address: string) => void;
}

export function apidService(opts: ApidServiceOptions): ServiceDefinition {
  let listening = false;
  return {
    id: APID_SERVICE,
    // up (for the Boot sequence and ServiceList) only once the port listens
    health: {
      check: async () => {
        if (!listening) throw new Error('the API is not listening yet');
      },
      settings: { initialDelayMs: 0, periodMs: 500, timeoutMs: 1_000 },
    },
    runner: () =>
      inProcessRunner(APID_SERVICE, async ({ signal, log }) => {
        const identity = await waitForIdentity(opts.state, signal);
        const server = await startApiServer({
          address: opts.address(),
          mode: 'normal',
          state: opts.state,
          identity,
          handlers: opts.handlers,
          // a `nodes` entry naming one of these (and no other port) is this node, served in place
          localNames: () => [...nodeAddresses(), hostname()],
          ...(opts.onQuiet ? { onQuiet: opts.onQuiet } : {}),
          ...(opts.version ? { version: opts.version } : {}),
          ...(opts.platform ? { platform: opts.platform } : {}),
          signal,
        });
        log.write(`serving the machine API with mutual TLS on ${server.address}\n`);
        listening = true;
        opts.onListening(server.address);
        try {
          await followIdentity(opts.state, signal, identity, (next) => {
            server.rotate({ server: next.server, ca: next.ca });
            log.write('rotated the API server certificate\n');
          });
        } finally {
          listening = false;
          await server.close({ signal: AbortSignal.timeout(5_000) });
        }
      }),
  };
}
