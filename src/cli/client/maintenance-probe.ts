// Telling a node that came back in maintenance mode from one still booting: it refuses mutual TLS with a
// certificate error, and answers Version over plain TLS without a client certificate.
import { connect } from './connection.js';
import { insecureTLS } from './credentials.js';
import { endpointAddress } from './endpoint.js';
import { ClientError, rpcText } from './errors.js';
import { MTLS_REFUSED } from './transport.js';

/** How long the insecure Version may take before the node counts as not (yet) in maintenance mode. */
const PROBE_MS = 5_000;

export const MAINTENANCE_MODE =
  'node came back in maintenance mode: apply a config with apply-config --insecure';

/** refusedMutualTLS: the failure is the node's certificate not being the cluster's, as a maintenance node's. */
export const refusedMutualTLS = (e: unknown): boolean =>
  (e instanceof ClientError ? e.message : rpcText(e)).includes(MTLS_REFUSED);

/** answersInsecurely asks `node` for its Version without a client certificate. */
export async function answersInsecurely(node: string, signal: AbortSignal): Promise<boolean> {
  const conn = connect(endpointAddress(node), insecureTLS(), 'insecure');
  try {
    await conn.unary(
      'machine.MachineService',
      'Version',
      {},
      {
        route: { kind: 'direct' },
        signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_MS)]),
      },
    );
    return true;
  } catch {
    return false;
  } finally {
    conn.close();
  }
}
