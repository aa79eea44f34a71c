// Self-signed certificate authorities: the OS (Talos API) CA, and the etcd, Kubernetes and aggregator CAs.
// Shape as siderolabs/crypto's NewSelfSignedCertificateAuthority.
import { type KeyObject, randomBytes } from 'node:crypto';
import { PKIError } from './errors.js';
import {
  basicConstraintsCA,
  extKeyUsageExtension,
  keyUsageExtension,
  subjectKeyIdentifier,
} from './extensions.js';
import type { Issuer } from './issue.js';
import { encodePrivateKey, generateKey, leafKeyTypeFor } from './keys.js';
import { CA_VALIDITY_MS } from './lifetimes.js';
import { encodeName } from './name.js';
import { parseCertificateDER } from './parse.js';
import { encodePEM, PEMLabel } from './pem.js';
import { newSerialNumber, signCertificate } from './sign.js';
import type { CertificateAndKey } from './types.js';

/** CAKeyType: upstream's default CA is Ed25519; `x509.ECDSA(true)` CAs are P-256 with SHA-256. */
export type CAKeyType = 'ed25519' | 'ecdsa-p256';

export interface CAOptions {
  readonly keyType?: CAKeyType;
  readonly organizations?: readonly string[];
  readonly commonName?: string;
  /** start of validity; defaults to the current time */
  readonly now?: Date;
  readonly validityMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * newCertificateAuthority mints a CA valid for 10 years by default. Like upstream it is CA:true without a
 * path length, lists serverAuth and clientAuth, and has a random 20-byte key identifier. Key usage is
 * certSign|digitalSignature, exactly as upstream: nothing in the cluster signs revocation lists.
 */
export async function newCertificateAuthority(opts: CAOptions = {}): Promise<CertificateAndKey> {
  const { der, privateKey } = await mintCA(opts);
  return { crt: encodePEM(PEMLabel.certificate, der), key: encodePrivateKey(privateKey) };
}

/** MintedCA is a CA just minted: its PEM pair, and the issuer to sign with, taken from what minted it. */
export interface MintedCA {
  readonly pair: CertificateAndKey;
  readonly issuer: Issuer;
}

/**
 * newIssuer mints a CA as newCertificateAuthority does and hands over its issuer too: signing under a CA
 * just made needs no PEM decoding of its key or certificate and no check that the two belong together.
 */
export async function newIssuer(opts: CAOptions = {}): Promise<MintedCA> {
  const { der, privateKey } = await mintCA(opts);
  const crt = encodePEM(PEMLabel.certificate, der);
  const certificate = parseCertificateDER(der, 'ca: crt');
  return {
    pair: { crt, key: encodePrivateKey(privateKey) },
    issuer: { crt, certificate, privateKey, leafKeyType: leafKeyTypeFor(certificate.keyAlgorithm) },
  };
}

/** mintCA generates the key and signs the self-signed certificate (DER) both functions above encode. */
async function mintCA(opts: CAOptions): Promise<{ der: Buffer; privateKey: KeyObject }> {
  const { keyType = 'ed25519', now = new Date(), validityMs = CA_VALIDITY_MS, signal } = opts;
  const name = {
    organizations: opts.organizations ?? [],
    ...(opts.commonName ? { commonName: opts.commonName } : {}),
  };
  if (!name.commonName && name.organizations.length === 0)
    throw new PKIError(
      'invalid-option',
      'certificate authority: subject needs a commonName or an organization',
    );
  const key = await generateKey(keyType, signal ? { signal } : {});
  const subject = encodeName(name);
  const der = signCertificate(
    {
      serial: newSerialNumber(),
      issuer: subject,
      subject,
      notBefore: now,
      notAfter: new Date(now.getTime() + validityMs),
      publicKey: key.publicKey,
      extensions: [
        keyUsageExtension(['digitalSignature', 'certSign']),
        extKeyUsageExtension(['serverAuth', 'clientAuth']),
        basicConstraintsCA(),
        subjectKeyIdentifier(randomBytes(20)),
      ],
    },
    key.privateKey,
  );
  return { der, privateKey: key.privateKey };
}
