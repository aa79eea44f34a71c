// Leaf certificates signed by a CA: server, client and peer, with a fresh key of the CA's kind.
// Defaults are siderolabs/crypto's: digitalSignature, serverAuth+clientAuth, 24 h, notBefore = now.
import type { KeyObject } from 'node:crypto';
import { PKIError } from './errors.js';
import {
  authorityKeyIdentifier,
  type ExtKeyUsage,
  extKeyUsageExtension,
  type KeyUsage,
  keyUsageExtension,
  subjectAltName,
} from './extensions.js';
import { decodePrivateKey, encodePrivateKey, generateKey, type KeyType, leafKeyTypeFor } from './keys.js';
import { DEFAULT_CERTIFICATE_VALIDITY_MS } from './lifetimes.js';
import { encodeName } from './name.js';
import { type CertificateInfo, parseCertificate } from './parse.js';
import { encodePEM, PEMLabel } from './pem.js';
import { newSerialNumber, signCertificate } from './sign.js';
import type { CertificateAndKey } from './types.js';
import { keyMatches } from './verify.js';

/** Issuer is a CA loaded once (parsed certificate and decoded key) to sign many leaves. */
export interface Issuer {
  readonly crt: string;
  readonly certificate: CertificateInfo;
  readonly privateKey: KeyObject;
  /** the key type its leaves get, following upstream's NewKeyPair */
  readonly leafKeyType: KeyType;
}

/** loadIssuer parses and checks a CA pair; `what` names it in errors (e.g. `certs.etcd`). */
export function loadIssuer(ca: CertificateAndKey, what = 'ca'): Issuer {
  const certificate = parseCertificate(ca.crt, `${what}: crt`);
  if (!certificate.isCA)
    throw new PKIError('invalid-certificate', `${what}: crt is not a CA (basicConstraints CA:true missing)`);
  const privateKey = decodePrivateKey(ca.key, `${what}: key`);
  if (!keyMatches(certificate, privateKey))
    throw new PKIError('key-mismatch', `${what}: key does not belong to the CA certificate`);
  return { crt: ca.crt, certificate, privateKey, leafKeyType: leafKeyTypeFor(certificate.keyAlgorithm) };
}

export interface LeafOptions {
  readonly commonName?: string;
  /** subject Organizations; for Talos API client certificates, the roles */
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly keyUsage?: readonly KeyUsage[];
  readonly extKeyUsage?: readonly ExtKeyUsage[];
  /** lifetime counted from `now` (not from the backdated start) */
  readonly validityMs?: number;
  /** start notBefore this far before `now`; upstream does so only for kubeconfig clients (10 s) */
  readonly backdateMs?: number;
  readonly now?: Date;
  readonly signal?: AbortSignal;
}

const isIssuer = (ca: CertificateAndKey | Issuer): ca is Issuer => 'certificate' in ca;

/** LeafFields are the certificate fields of LeafOptions, without the key generation controls. */
export type LeafFields = Omit<LeafOptions, 'signal'>;

interface PreparedLeaf {
  readonly subject: Buffer;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly extensions: Buffer[];
}

/** prepareLeaf checks the options and encodes everything but the key, so bad input costs no key. */
function prepareLeaf(issuer: Issuer, opts: LeafFields): PreparedLeaf {
  const {
    now = new Date(),
    validityMs = DEFAULT_CERTIFICATE_VALIDITY_MS,
    backdateMs = 0,
    keyUsage = ['digitalSignature'],
    extKeyUsage = ['serverAuth', 'clientAuth'],
    dnsNames = [],
    ipAddresses = [],
    organizations = [],
  } = opts;
  const name = { organizations, ...(opts.commonName ? { commonName: opts.commonName } : {}) };
  const subjectEmpty = !name.commonName && organizations.length === 0;
  if (subjectEmpty && dnsNames.length === 0 && ipAddresses.length === 0)
    throw new PKIError('invalid-option', 'certificate: needs a commonName, an organization or a SAN');
  if (backdateMs < 0) throw new PKIError('invalid-option', `backdateMs ${backdateMs}: must not be negative`);
  const notBefore = new Date(now.getTime() - backdateMs);
  const notAfter = new Date(now.getTime() + validityMs);
  if (notAfter.getTime() <= notBefore.getTime())
    throw new PKIError(
      'invalid-option',
      `validity: notAfter ${notAfter.toISOString()} is not after notBefore ${notBefore.toISOString()}`,
    );
  const extensions = [
    ...(keyUsage.length ? [keyUsageExtension(keyUsage)] : []),
    ...(extKeyUsage.length ? [extKeyUsageExtension(extKeyUsage)] : []),
    ...(issuer.certificate.subjectKeyId
      ? [authorityKeyIdentifier(Buffer.from(issuer.certificate.subjectKeyId, 'hex'))]
      : []),
    ...(dnsNames.length || ipAddresses.length ? [subjectAltName(dnsNames, ipAddresses, subjectEmpty)] : []),
  ];
  return { subject: encodeName(name), notBefore, notAfter, extensions };
}

function signPrepared(issuer: Issuer, leaf: PreparedLeaf, publicKey: KeyObject): string {
  const der = signCertificate(
    { ...leaf, serial: newSerialNumber(), issuer: issuer.certificate.subject.der, publicKey },
    issuer.privateKey,
  );
  return encodePEM(PEMLabel.certificate, der);
}

/** signLeaf certifies an existing public key (a CSR's, say) and returns the certificate PEM. */
export const signLeaf = (issuer: Issuer, publicKey: KeyObject, opts: LeafFields = {}): string =>
  signPrepared(issuer, prepareLeaf(issuer, opts), publicKey);

/** issueCertificate mints a key of the CA's kind and a certificate for it signed by the CA. */
export async function issueCertificate(
  ca: CertificateAndKey | Issuer,
  opts: LeafOptions = {},
): Promise<CertificateAndKey> {
  const issuer = isIssuer(ca) ? ca : loadIssuer(ca);
  const { signal, ...fields } = opts;
  const leaf = prepareLeaf(issuer, fields);
  const key = await generateKey(issuer.leafKeyType, signal ? { signal } : {});
  return { crt: signPrepared(issuer, leaf, key.publicKey), key: encodePrivateKey(key.privateKey) };
}
