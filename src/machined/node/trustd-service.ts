// trustd as a supervised in-process service on control planes: it signs workers' apid certificates.
// In-process, as apid is: Keel's servers live inside machined and read its state directly, where
// upstream runs trustd as its own process dialling machined's state socket.
import { startTrustdServer } from '../../api/trustd/index.js';
import type { State } from '../../cosi/state/state.js';
import { TRUSTD_PORT } from '../../trustd/endpoints.js';
import { inProcessRunner, type ServiceDefinition } from '../services/index.js';
import { followTrustdCertificate, trustdRoot, waitForTrustdCertificate } from './trustd-identity.js';

export const TRUSTD_SERVICE = 'trustd';

export interface TrustdServiceOptions {
  readonly state: State;
  /** `host:port` to listen on */
  readonly address: () => string;
}

/**
 * trustdAddressFor is trustd's default address: the API's host (every interface on a node, loopback in
 * a container) on the port after the API's, which is upstream's 50001 beside 50000; a container node
 * whose API was moved to 50001 keeps its trustd off that port. A worker asks on the same port.
 */
export function trustdAddressFor(apiAddress: string): string {
  const at = apiAddress.lastIndexOf(':');
  const apiPort = Number(apiAddress.slice(at + 1));
  const port = apiPort > 0 && apiPort < 0xffff ? apiPort + 1 : TRUSTD_PORT;
  return `${apiAddress.slice(0, at)}:${port}`;
}

/** portOf reads the port of a `host:port` address. */
export const portOf = (address: string): number => Number(address.slice(address.lastIndexOf(':') + 1));

export function trustdService(opts: TrustdServiceOptions): ServiceDefinition {
  let listening = false;
  return {
    id: TRUSTD_SERVICE,
    // up (for the Boot sequence and ServiceList) only once the port listens
    health: {
      check: async () => {
        if (!listening) throw new Error('trustd is not listening yet');
      },
      settings: { initialDelayMs: 0, periodMs: 500, timeoutMs: 1_000 },
    },
    runner: () =>
      inProcessRunner(TRUSTD_SERVICE, async ({ signal, log }) => {
        const certificate = await waitForTrustdCertificate(opts.state, signal);
        const server = await startTrustdServer({
          address: opts.address(),
          server: certificate,
          root: () => trustdRoot(opts.state),
          log: (line) => log.write(`${line}\n`),
        });
        log.write(`serving trustd on ${server.address}\n`);
        listening = true;
        try {
          await followTrustdCertificate(opts.state, signal, certificate, (next) => {
            server.rotate(next);
            log.write('rotated the trustd server certificate\n');
          });
        } finally {
          listening = false;
          await server.close({ signal: AbortSignal.timeout(5_000) });
        }
      }),
  };
}
