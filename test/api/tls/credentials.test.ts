import { describe, expect, it } from 'vitest';
import { mutualTLSCredentials, serverOnlyTLSCredentials } from '../../../src/api/tls/credentials.js';
import { mintMaintenanceIdentity } from '../../../src/api/tls/maintenance.js';
import { mintPKI } from '../fixtures.js';

/** what grpc-js will hand a server made from these credentials now */
const heldOptions = (c: { credentials: { _getSecureContextOptions(): unknown } }) =>
  c.credentials._getSecureContextOptions() as { cert?: Buffer[]; key?: Buffer[]; ca?: Buffer } | null;

const microtask = () => new Promise<void>((r) => queueMicrotask(r));

describe('API server credentials', () => {
  it('hold the server-only pair before any server is made, so its TLS context is built once', async () => {
    const id = await mintMaintenanceIdentity({ ipAddresses: ['192.0.2.10'] });
    const creds = serverOnlyTLSCredentials(id.server);
    await microtask();
    const held = heldOptions(creds);
    expect(held?.cert?.[0]?.toString()).toBe(id.server.crt);
    expect(held?.key).toHaveLength(1);
    expect(held?.ca).toBeUndefined();
  });

  it('hold the mutual-TLS pair and client CA before any server is made, and follow a rotation', async () => {
    const pki = await mintPKI();
    const creds = mutualTLSCredentials({ ca: pki.osCA.crt, server: pki.server });
    await microtask();
    expect(heldOptions(creds)?.cert?.[0]?.toString()).toBe(pki.server.crt);
    expect(heldOptions(creds)?.ca?.toString()).toBe(pki.osCA.crt);
    creds.rotate({ server: pki.dualUsage });
    expect(heldOptions(creds)?.cert?.[0]?.toString()).toBe(pki.dualUsage.crt);
  });
});
