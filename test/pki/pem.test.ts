import { describe, expect, it } from 'vitest';
import { decodePEM, decodePEMAll, encodePEM, PEMLabel, standardKeyLabel } from '../../src/pki/index.js';

describe('PEM', () => {
  it('wraps base64 at 64 columns and decodes back', () => {
    const der = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    const pem = encodePEM('CERTIFICATE', der);
    const lines = pem.trimEnd().split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines[1]).toHaveLength(64);
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----');
    expect(decodePEM(pem, 'x').der.equals(der)).toBe(true);
  });

  it('reads several blocks in order, ignoring text around them (CA bundles)', () => {
    const text = `junk\n${encodePEM('CERTIFICATE', Buffer.from([1]))}between\r\n${encodePEM('CERTIFICATE', Buffer.from([2]))}`;
    expect(decodePEMAll(text).map((b) => b.der[0])).toEqual([1, 2]);
  });

  it('accepts CRLF line endings', () => {
    const pem = encodePEM('PUBLIC KEY', Buffer.from('abc')).replaceAll('\n', '\r\n');
    expect(decodePEM(pem, 'k').der.toString()).toBe('abc');
  });

  it('rejects legacy encrypted PEM and a wrong label, naming the input', () => {
    const enc =
      '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n-----END RSA PRIVATE KEY-----\n';
    expect(() => decodePEMAll(enc)).toThrow(/headers are not supported/);
    expect(() =>
      decodePEM(encodePEM('PUBLIC KEY', Buffer.from([1])), 'cluster.ca.crt', [PEMLabel.certificate]),
    ).toThrow('cluster.ca.crt: PEM label PUBLIC KEY, want CERTIFICATE');
  });

  it('relabels only the Ed25519 key label', () => {
    const ed = encodePEM(PEMLabel.ed25519PrivateKey, Buffer.from([1, 2, 3]));
    expect(standardKeyLabel(ed)).toBe(encodePEM(PEMLabel.privateKey, Buffer.from([1, 2, 3])));
    const ec = encodePEM(PEMLabel.ecPrivateKey, Buffer.from([1]));
    expect(standardKeyLabel(ec)).toBe(ec);
  });
});
