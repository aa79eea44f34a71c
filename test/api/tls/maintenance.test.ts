import { describe, expect, it } from 'vitest';
import { maintenanceConsoleLines, mintMaintenanceIdentity } from '../../../src/api/tls/maintenance.js';
import { parseCertificate, spkiFingerprint } from '../../../src/pki/index.js';

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
