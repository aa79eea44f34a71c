// openssl as an independent checker of the certificates the controllers hold.
import { type CertificateAndKey, standardKeyLabel } from '../../../src/pki/index.js';
import { inspect, type OpenSSLView, openssl, withFiles } from '../../pki/openssl.js';

export interface Checked {
  readonly view: OpenSSLView;
  /** the dNS and IP entries of the SAN extension */
  readonly sans: string[];
}

/** verifyLeaf runs `openssl verify` of the leaf against its CA with a purpose, checks key and cert pair, and inspects it. */
export async function verifyLeaf(
  ca: string,
  pair: CertificateAndKey,
  purpose: 'sslserver' | 'sslclient',
): Promise<Checked> {
  const leaf = firstPEM(pair.crt);
  const result = await withFiles({ ca, leaf, key: standardKeyLabel(pair.key) }, async (p) => {
    const verify = await openssl(['verify', '-purpose', purpose, '-CAfile', p.ca, p.leaf]);
    const pub1 = await openssl(['x509', '-noout', '-pubkey', '-in', p.leaf]);
    const pub2 = await openssl(['pkey', '-pubout', '-in', p.key]);
    return { verify, samePair: pub1.code === 0 && pub2.code === 0 && pub1.stdout === pub2.stdout };
  });
  if (result.verify.code !== 0)
    throw new Error(`openssl verify: ${result.verify.stderr}${result.verify.stdout}`);
  if (!result.samePair) throw new Error('private key does not belong to the certificate');
  const view = await inspect(leaf);
  const sans = (view.ext['X509v3 Subject Alternative Name'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { view, sans };
}

/** firstPEM is the leaf of a PEM chain. */
export const firstPEM = (pem: string): string => {
  const end = '-----END CERTIFICATE-----';
  return `${pem.slice(0, pem.indexOf(end) + end.length)}\n`;
};
