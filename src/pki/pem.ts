// PEM blocks: encode, decode, and the labels Talos uses, including its non-standard Ed25519 key label.
// Pure string and byte work; no key parsing here.
import { PKIError } from './errors.js';

/** The PEM labels siderolabs/crypto writes and reads (x509/constants.go). */
export const PEMLabel = {
  certificate: 'CERTIFICATE',
  certificateRequest: 'CERTIFICATE REQUEST',
  /** PKCS#8, any algorithm */
  privateKey: 'PRIVATE KEY',
  /** PKCS#8 bytes under Talos' own label; OpenSSL 3 refuses this label, Go's TLS accepts it */
  ed25519PrivateKey: 'ED25519 PRIVATE KEY',
  /** SEC 1 ECPrivateKey */
  ecPrivateKey: 'EC PRIVATE KEY',
  /** PKCS#1 RSAPrivateKey */
  rsaPrivateKey: 'RSA PRIVATE KEY',
  publicKey: 'PUBLIC KEY',
} as const;

export interface PEMBlock {
  readonly label: string;
  readonly der: Buffer;
}

/** encodePEM writes one block with 64-column base64, as Go's pem.Encode does. */
export function encodePEM(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}${lines.length ? '\n' : ''}-----END ${label}-----\n`;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** decodePEMAll returns every block in order; text between blocks is ignored, as in Go. */
export function decodePEMAll(text: string): PEMBlock[] {
  const out: PEMBlock[] = [];
  for (const m of text.matchAll(BLOCK)) {
    const body = m[2]!;
    // headers such as Proc-Type are legacy encryption markers that Keel never writes or accepts
    if (body.includes(':')) throw new PKIError('invalid-pem', `pem block ${m[1]}: headers are not supported`);
    const b64 = body.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
      throw new PKIError('invalid-pem', `pem block ${m[1]}: body is not base64`);
    out.push({ label: m[1]!, der: Buffer.from(b64, 'base64') });
  }
  return out;
}

/** decodePEM returns the first block, checking its label when `labels` are given. */
export function decodePEM(text: string, what: string, labels?: readonly string[]): PEMBlock {
  const [block] = decodePEMAll(text);
  if (!block) throw new PKIError('invalid-pem', `${what}: no PEM block found`);
  if (labels && !labels.includes(block.label))
    throw new PKIError('invalid-pem', `${what}: PEM label ${block.label}, want ${labels.join(' or ')}`);
  return block;
}

/**
 * standardKeyLabel relabels an `ED25519 PRIVATE KEY` block as `PRIVATE KEY` (the bytes are already
 * PKCS#8) so that Node's crypto and TLS, which sit on OpenSSL 3, accept it. Other PEM is returned as is.
 */
export function standardKeyLabel(pem: string): string {
  return pem
    .replace(`-----BEGIN ${PEMLabel.ed25519PrivateKey}-----`, `-----BEGIN ${PEMLabel.privateKey}-----`)
    .replace(`-----END ${PEMLabel.ed25519PrivateKey}-----`, `-----END ${PEMLabel.privateKey}-----`);
}
