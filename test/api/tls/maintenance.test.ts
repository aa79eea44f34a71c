import { describe, expect, it } from 'vitest';
import { maintenanceConsoleLines, mintMaintenanceIdentity } from '../../../src/api/tls/maintenance.js';
import {
  checkIssuedBy,
  checkKeyPair,
  parseCertificate,
  spkiFingerprint,
  standardKeyLabel,
} from '../../../src/pki/index.js';

describe('maintenance identity', () => {
  it('is a self-signed Ed25519 root with a serverAuth leaf and its SPKI fingerprint', async () => {
    const id = await mintMaintenanceIdentity({ ipAddresses: ['192.0.2.10'] });
    const ca = parseCertificate(id.ca.crt);
    const leaf = parseCertificate(id.server.crt);
    expect(ca.isCA).toBe(true);
    expect(ca.keyAlgorithm).toBe('ed25519');
    expect(leaf.extKeyUsage).toEqual(['serverAuth']);
    expect(leaf.ipAddresses).toEqual(['192.0.2.10']);
    expect(id.fingerprint).toBe(spkiFingerprint(id.server.crt));
    // the server credentials take the minted pair unchecked: it must hold together as minted
    expect(() => checkKeyPair({ crt: id.server.crt, key: standardKeyLabel(id.server.key) })).not.toThrow();
    expect(() => checkIssuedBy(id.server.crt, id.ca.crt)).not.toThrow();
  });

  it('mints nothing once its signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('boot cancelled'));
    await expect(mintMaintenanceIdentity({ signal: ac.signal })).rejects.toThrow('boot cancelled');
  });
});

describe('maintenanceConsoleLines', () => {
  it('tells how to send the config, with and without pinning the fingerprint', () => {
    const lines = maintenanceConsoleLines(['192.0.2.10'], 'AAAA');
    expect(lines).toContain(
      'upload it with: talosctl apply-config --insecure --nodes 192.0.2.10 --file <config.yaml>',
    );
    expect(lines.some((l) => l.includes("--cert-fingerprint 'AAAA'"))).toBe(true);
  });
});
