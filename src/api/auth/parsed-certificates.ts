// Client certificates parsed once per certificate, not once per call: a client sends its calls over one
// connection with one certificate, and parsing its DER was a tenth of a small call's work. Keyed by the
// SHA-256 fingerprint Node computes for the verified peer certificate anyway; the last 64 are kept.
import type { PeerCertificate } from 'node:tls';
import { type CertificateInfo, parseCertificateDER } from '../../pki/index.js';

const KEEP = 64;
const parsed = new Map<string, CertificateInfo>();

/** parsedPeerCertificate is parseCertificateDER of the peer's certificate, from the cache when seen lately. */
export function parsedPeerCertificate(peer: PeerCertificate & { raw: Buffer }): CertificateInfo {
  const key = peer.fingerprint256;
  const hit = key ? parsed.get(key) : undefined;
  if (hit) {
    // most recently used last, so the oldest goes first
    parsed.delete(key);
    parsed.set(key, hit);
    return hit;
  }
  const cert = parseCertificateDER(peer.raw, 'client certificate');
  if (key) {
    parsed.set(key, cert);
    if (parsed.size > KEEP) parsed.delete(parsed.keys().next().value as string);
  }
  return cert;
}
