import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { parsedPeerCertificate } from '../../../src/api/auth/parsed-certificates.js';
import { mintPKI } from '../fixtures.js';

/** peer is what TLS gives for a verified client certificate: its DER and SHA-256 fingerprint */
const peer = (pem: string) => {
  const x = new X509Certificate(pem);
  return { raw: x.raw, fingerprint256: x.fingerprint256 } as PeerCertificate & { raw: Buffer };
};

describe('parsedPeerCertificate', () => {
  it('parses a certificate once, and tells certificates apart', async () => {
    const pki = await mintPKI();
    const admin = parsedPeerCertificate(peer(pki.admin.crt));
    expect(admin.subject.organizations).toEqual(['os:admin']);
    expect(parsedPeerCertificate(peer(pki.admin.crt))).toBe(admin);
    const reader = parsedPeerCertificate(peer(pki.reader.crt));
    expect(reader.subject.organizations).toEqual(['os:reader']);
    expect(reader).not.toBe(admin);
  });

  it('still refuses DER that does not parse', () => {
    const bad = { raw: Buffer.from([0x30, 0x03, 0x02, 0x01]), fingerprint256: 'AA:BB' };
    expect(() => parsedPeerCertificate(bad as PeerCertificate & { raw: Buffer })).toThrow();
  });
});
