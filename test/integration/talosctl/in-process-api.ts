// An API server in the test's process that the stock talosctl trusts: its certificate comes from the OS CA
// of a config talosctl generated, so the talosconfig beside it works. For what a container node cannot be
// yet (a worker's apid takes its certificate from trustd) or cannot hold (a real kubelet's pod statuses).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { HandlerMap } from '../../../src/api/handlers.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import type { CoreState } from '../../../src/cosi/state/core.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { issueCertificate, profiles } from '../../../src/pki/index.js';

type CA = { crt: string; key: string };
const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** caOf reads `machine.ca` or `cluster.ca` (PEM) from the v1alpha1 document of a generated config. */
export function caOf(configPath: string, section: 'machine' | 'cluster'): CA {
  const [v1alpha1] = readFileSync(configPath, 'utf8').split(/^---\n/m);
  const ca = (parse(v1alpha1!) as Record<string, { ca: CA }>)[section]!.ca;
  return { crt: pem(ca.crt), key: ca.key ? pem(ca.key) : '' };
}

/**
 * startInProcessApi serves `handlers`, and `state` read-only as the COSI state, with mutual TLS on
 * 127.0.0.1, as a node of that config's cluster.
 */
export async function startInProcessApi(
  controlplanePath: string,
  handlers: HandlerMap,
  state: CoreState = newInmemState(),
): Promise<ApiServer> {
  const osCA = caOf(controlplanePath, 'machine');
  const server = await issueCertificate(
    osCA,
    profiles.apidServer({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, 'worker.test'),
  );
  return startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state,
    identity: { ca: osCA.crt, server },
    handlers,
  });
}
