// Reading certificates back: subject, issuer, SANs, validity, key type, usages, key identifiers.
// Controllers use it to decide on re-issue; nothing here verifies signatures (see verify.ts).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { PKIError } from './errors.js';
import { EXT_KEY_USAGE_OIDS, type ExtKeyUsage, type KeyUsage } from './extensions.js';
import { children, expect, read, readOid, readTime } from './internal/der-reader.js';
import {
  type ParsedName,
  parseName,
  readBasicConstraintsCA,
  readKeyUsage,
  readSANs,
  SIGNATURE_NAMES,
  spkiAlgorithm,
} from './internal/fields.js';
import { OID } from './internal/oids.js';
import type { KeyAlgorithm } from './keys.js';
import { decodePEM, PEMLabel } from './pem.js';

export type { ParsedName } from './internal/fields.js';

export interface CertificateInfo {
  readonly der: Buffer;
  /** lowercase hex, no leading zero byte */
  readonly serialNumber: string;
  readonly subject: ParsedName;
  readonly issuer: ParsedName;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** decoded on first use */
  readonly publicKey: KeyObject;
  readonly keyAlgorithm: KeyAlgorithm;
  /** the SubjectPublicKeyInfo DER, as fingerprints hash it */
  readonly spki: Buffer;
  readonly signatureAlgorithm: string;
  readonly isCA: boolean;
  readonly keyUsage: readonly KeyUsage[];
  /** known purposes by name, others as dotted OIDs */
  readonly extKeyUsage: readonly (ExtKeyUsage | string)[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  /** lowercase hex */
  readonly subjectKeyId?: string;
  readonly authorityKeyId?: string;
}

const EKU_NAMES = new Map(Object.entries(EXT_KEY_USAGE_OIDS).map(([name, id]) => [id, name]));
/** parseCertificateDER reads a DER certificate; `what` names it in errors. */
export function parseCertificateDER(der: Buffer, what = 'certificate'): CertificateInfo {
  try {
    const cert = read(der);
    if (cert.next !== der.length) throw new Error('trailing bytes after the certificate');
    const [tbs, sigAlg] = children(expect(cert, 0x30, 'certificate'));
    const fields = children(expect(tbs, 0x30, 'tbsCertificate'));
    let i = fields[0]?.tag === 0xa0 ? 1 : 0; // version is optional (v1)
    const serial = expect(fields[i++], 0x02, 'serial number').value;
    i++; // inner signature algorithm, repeated outside
    const issuer = parseName(expect(fields[i++], 0x30, 'issuer'));
    const [nb, na] = children(expect(fields[i++], 0x30, 'validity'));
    if (!nb || !na) throw new Error('validity needs notBefore and notAfter');
    const subject = parseName(expect(fields[i++], 0x30, 'subject'));
    const spkiNode = expect(fields[i++], 0x30, 'subject public key info');
    const spki = Buffer.from(spkiNode.raw);
    const keyAlgorithm = spkiAlgorithm(spkiNode);
    let publicKey: KeyObject | undefined;

    let isCA = false;
    let keyUsage: KeyUsage[] = [];
    let extKeyUsage: string[] = [];
    let sans = { dnsNames: [] as string[], ipAddresses: [] as string[] };
    let subjectKeyId: string | undefined;
    let authorityKeyId: string | undefined;
    const exts = fields.slice(i).find((f) => f.tag === 0xa3);
    for (const ext of exts ? children(expect(children(exts)[0], 0x30, 'extensions')) : []) {
      const parts = children(expect(ext, 0x30, 'extension'));
      const id = readOid(expect(parts[0], 0x06, 'extension id'));
      const value = expect(parts[parts.length - 1], 0x04, `extension ${id} value`).value;
      switch (id) {
        case OID.keyUsage:
          keyUsage = readKeyUsage(value);
          break;
        case OID.extKeyUsage:
          extKeyUsage = children(expect(read(value), 0x30, 'extended key usage')).map((n) => {
            const o = readOid(n);
            return EKU_NAMES.get(o) ?? o;
          });
          break;
        case OID.basicConstraints:
          isCA = readBasicConstraintsCA(value);
          break;
        case OID.subjectAltName:
          sans = readSANs(value);
          break;
        case OID.subjectKeyIdentifier:
          subjectKeyId = expect(read(value), 0x04, 'subject key identifier').value.toString('hex');
          break;
        case OID.authorityKeyIdentifier: {
          const keyId = children(expect(read(value), 0x30, 'authority key identifier')).find(
            (n) => n.tag === 0x80,
          );
          if (keyId) authorityKeyId = keyId.value.toString('hex');
          break;
        }
      }
    }
    const sigOid = readOid(
      expect(children(expect(sigAlg, 0x30, 'signature algorithm'))[0], 0x06, 'algorithm'),
    );
    const serialHex = serial.toString('hex').replace(/^(00)+(?=.)/, '');
    return {
      der,
      serialNumber: serialHex,
      subject,
      issuer,
      notBefore: readTime(nb),
      notAfter: readTime(na),
      get publicKey() {
        publicKey ??= createPublicKey({ key: spki, format: 'der', type: 'spki' });
        return publicKey;
      },
      keyAlgorithm,
      spki,
      signatureAlgorithm: SIGNATURE_NAMES[sigOid] ?? sigOid,
      isCA,
      keyUsage,
      extKeyUsage,
      dnsNames: sans.dnsNames,
      ipAddresses: sans.ipAddresses,
      ...(subjectKeyId ? { subjectKeyId } : {}),
      ...(authorityKeyId ? { authorityKeyId } : {}),
    };
  } catch (cause) {
    if (cause instanceof PKIError) throw cause;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new PKIError('invalid-certificate', `${what}: ${why}`, { cause });
  }
}

/** parseCertificate reads the first CERTIFICATE block of a PEM string. */
export function parseCertificate(pem: string, what = 'certificate'): CertificateInfo {
  return parseCertificateDER(decodePEM(pem, what, [PEMLabel.certificate]).der, what);
}

/** CertificateInput is a PEM string or an already parsed certificate. */
export type CertificateInput = string | CertificateInfo;

export const asCertificateInfo = (c: CertificateInput, what = 'certificate'): CertificateInfo =>
  typeof c === 'string' ? parseCertificate(c, what) : c;
