// Certificate signing requests (PKCS #10): how a worker gets its apid certificate from trustd without
// ever holding the OS CA key. The worker makes key + CSR; trustd checks it, strips roles and signs.
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { PKIError } from './errors.js';
import { subjectAltName } from './extensions.js';
import { bitString, explicit, oid, sequence, setOf, smallInteger } from './internal/der.js';
import { children, expect, read, readOid } from './internal/der-reader.js';
import { type ParsedName, parseName, readSANs, spkiAlgorithm } from './internal/fields.js';
import { OID } from './internal/oids.js';
import { type Issuer, type LeafFields, loadIssuer, signLeaf } from './issue.js';
import { encodePrivateKey, generateKey, type KeyAlgorithm, leafKeyTypeFor } from './keys.js';
import { type DistinguishedName, encodeName } from './name.js';
import { asCertificateInfo, type CertificateInput } from './parse.js';
import { decodePEM, encodePEM, PEMLabel } from './pem.js';
import { signatureAlgorithm, signBytes } from './sign.js';
import type { CertificateAndKey } from './types.js';

export interface RequestOptions extends DistinguishedName {
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

/** newCertificateRequest encodes and signs a CSR for `key`; SANs travel in an extensionRequest attribute. */
export function newCertificateRequest(key: KeyObject, opts: RequestOptions = {}): string {
  const { dnsNames = [], ipAddresses = [], organizations = [] } = opts;
  const name = { organizations, ...(opts.commonName ? { commonName: opts.commonName } : {}) };
  const subjectEmpty = !name.commonName && organizations.length === 0;
  const attributes =
    dnsNames.length || ipAddresses.length
      ? [
          sequence(
            oid(OID.extensionRequest),
            setOf(sequence(subjectAltName(dnsNames, ipAddresses, subjectEmpty))),
          ),
        ]
      : [];
  const info = sequence(
    smallInteger(0),
    encodeName(name),
    createPublicKey(key).export({ type: 'spki', format: 'der' }),
    explicit(0, Buffer.concat(attributes)),
  );
  const der = sequence(info, signatureAlgorithm(key).id, bitString(signBytes(info, key)));
  return encodePEM(PEMLabel.certificateRequest, der);
}

/** newCSRAndKey makes a key of the kind the CA issues (as NewCSRAndIdentityFromCA) and a CSR for it. */
export async function newCSRAndKey(
  caCrt: CertificateInput,
  opts: RequestOptions & { signal?: AbortSignal } = {},
): Promise<{ csr: string; key: string }> {
  const type = leafKeyTypeFor(asCertificateInfo(caCrt, 'ca certificate').keyAlgorithm);
  const { signal, ...request } = opts;
  const key = await generateKey(type, signal ? { signal } : {});
  return { csr: newCertificateRequest(key.privateKey, request), key: encodePrivateKey(key.privateKey) };
}

export interface CertificateRequestInfo {
  readonly subject: ParsedName;
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly publicKey: KeyObject;
  readonly keyAlgorithm: KeyAlgorithm;
}

const VERIFY_HASH: Record<string, string | null> = {
  [OID.ed25519]: null,
  [OID.ecdsaWithSHA256]: 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  [OID.sha512WithRSAEncryption]: 'sha512',
};

/** parseCertificateRequest reads a CSR and checks its self-signature (proof that the requester holds the key). */
export function parseCertificateRequest(pem: string, what = 'certificate request'): CertificateRequestInfo {
  const { der } = decodePEM(pem, what, [PEMLabel.certificateRequest]);
  let parsed: CertificateRequestInfo & { signed: Buffer; sigOid: string; signature: Buffer };
  try {
    const [info, sigAlg, sig] = children(expect(read(der), 0x30, 'certification request'));
    const [, subject, spki, attrs] = children(expect(info, 0x30, 'certification request info'));
    const spkiNode = expect(spki, 0x30, 'subject public key info');
    let sans = { dnsNames: [] as string[], ipAddresses: [] as string[] };
    for (const attr of attrs?.tag === 0xa0 ? children(attrs) : []) {
      const [type, values] = children(expect(attr, 0x30, 'attribute'));
      if (readOid(expect(type, 0x06, 'attribute type')) !== OID.extensionRequest) continue;
      const [exts] = children(expect(values, 0x31, 'attribute values'));
      for (const ext of children(expect(exts, 0x30, 'extensions'))) {
        const parts = children(expect(ext, 0x30, 'extension'));
        if (readOid(expect(parts[0], 0x06, 'extension id')) === OID.subjectAltName)
          sans = readSANs(expect(parts[parts.length - 1], 0x04, 'extension value').value);
      }
    }
    const signature = expect(sig, 0x03, 'signature').value.subarray(1);
    parsed = {
      subject: parseName(expect(subject, 0x30, 'subject')),
      ...sans,
      publicKey: createPublicKey({ key: spkiNode.raw, format: 'der', type: 'spki' }),
      keyAlgorithm: spkiAlgorithm(spkiNode),
      signed: info!.raw,
      sigOid: readOid(expect(children(expect(sigAlg, 0x30, 'signature algorithm'))[0], 0x06, 'algorithm')),
      signature,
    };
  } catch (cause) {
    if (cause instanceof PKIError) throw cause;
    throw new PKIError('invalid-certificate', `${what}: ${cause instanceof Error ? cause.message : cause}`, {
      cause,
    });
  }
  const { signed, sigOid, signature, ...out } = parsed;
  const hash = VERIFY_HASH[sigOid];
  if (hash === undefined)
    throw new PKIError('unsupported-key', `${what}: unsupported signature algorithm ${sigOid}`);
  const key =
    out.publicKey.asymmetricKeyType === 'ec'
      ? { key: out.publicKey, dsaEncoding: 'der' as const }
      : out.publicKey;
  if (!verify(hash, signed, key, signature))
    throw new PKIError('invalid-certificate', `${what}: signature does not verify against its own key`);
  return out;
}

export interface SignRequestOptions
  extends Omit<LeafFields, 'commonName' | 'organizations' | 'dnsNames' | 'ipAddresses'> {
  /** drop the requested Organizations: in Talos they are roles, which a CSR must not grant itself */
  readonly dropOrganizations?: boolean;
}

/**
 * signCertificateRequest certifies a CSR's key with the subject and SANs it asks for. trustd calls it
 * with profiles.trustdSigning(): Organizations dropped, digitalSignature, serverAuth only.
 */
export function signCertificateRequest(
  ca: CertificateAndKey | Issuer,
  csr: string,
  opts: SignRequestOptions = {},
): string {
  const issuer = 'certificate' in ca ? ca : loadIssuer(ca);
  const request = parseCertificateRequest(csr);
  const { dropOrganizations = false, ...fields } = opts;
  return signLeaf(issuer, request.publicKey, {
    ...fields,
    ...(request.subject.commonName ? { commonName: request.subject.commonName } : {}),
    organizations: dropOrganizations ? [] : request.subject.organizations,
    dnsNames: request.dnsNames,
    ipAddresses: request.ipAddresses,
  });
}
