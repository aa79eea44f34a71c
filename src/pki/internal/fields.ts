// Readers for the fields certificates and certificate requests share: names, SANs, key algorithm, usages.
// They throw plain errors; the public parsers wrap them with what was being read.
import { PKIError } from '../errors.js';
import { KEY_USAGES, type KeyUsage } from '../extensions.js';
import type { KeyAlgorithm } from '../keys.js';
import type { DistinguishedName } from '../name.js';
import { children, expect, type Node, read, readOid, readString } from './der-reader.js';
import { bytesToIp } from './ip.js';
import { OID } from './oids.js';

export interface ParsedName extends DistinguishedName {
  readonly commonName?: string;
  readonly organizations: readonly string[];
  /** the encoded Name, to copy into a certificate's issuer field */
  readonly der: Buffer;
}

export const SIGNATURE_NAMES: Record<string, string> = {
  [OID.ed25519]: 'ed25519',
  [OID.ecdsaWithSHA256]: 'ecdsa-with-sha256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-sha384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-sha512',
  '1.2.840.113549.1.1.11': 'sha256-with-rsa',
  '1.2.840.113549.1.1.12': 'sha384-with-rsa',
  [OID.sha512WithRSAEncryption]: 'sha512-with-rsa',
};

export function parseName(node: Node): ParsedName {
  let commonName: string | undefined;
  const organizations: string[] = [];
  for (const rdn of children(expect(node, 0x30, 'name'))) {
    for (const atv of children(expect(rdn, 0x31, 'relative distinguished name'))) {
      const [type, value] = children(expect(atv, 0x30, 'attribute'));
      const id = readOid(expect(type, 0x06, 'attribute type'));
      if (!value) throw new Error('attribute without a value');
      if (id === OID.commonName) commonName = readString(value);
      else if (id === OID.organization) organizations.push(readString(value));
    }
  }
  return { ...(commonName !== undefined ? { commonName } : {}), organizations, der: Buffer.from(node.raw) };
}

export function readKeyUsage(value: Buffer): KeyUsage[] {
  const bits = read(value);
  const bytes = expect(bits, 0x03, 'key usage').value.subarray(1);
  return KEY_USAGES.filter((_, i) => ((bytes[i >> 3] ?? 0) >> (7 - (i & 7))) & 1);
}

export function readBasicConstraintsCA(value: Buffer): boolean {
  const [first] = children(expect(read(value), 0x30, 'basic constraints'));
  return first?.tag === 0x01 && first.value[0] !== 0;
}

export function readSANs(value: Buffer): { dnsNames: string[]; ipAddresses: string[] } {
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  for (const gn of children(expect(read(value), 0x30, 'subject alternative names'))) {
    if (gn.tag === 0x82) dnsNames.push(gn.value.toString('ascii'));
    else if (gn.tag === 0x87) ipAddresses.push(bytesToIp(gn.value));
  }
  return { dnsNames, ipAddresses };
}

const CURVE_NAMES: Record<string, string> = {
  [OID.prime256v1]: 'p256',
  [OID.secp384r1]: 'p384',
  [OID.secp521r1]: 'p521',
};

/**
 * spkiAlgorithm names the key from the SubjectPublicKeyInfo bytes; building a KeyObject would cost
 * ~100 µs in OpenSSL 3's decoders, more than the rest of the parse, so that is left to first use.
 */
export function spkiAlgorithm(spki: Node): KeyAlgorithm {
  const [algId, key] = children(spki);
  const [idNode, params] = children(expect(algId, 0x30, 'public key algorithm'));
  const id = readOid(expect(idNode, 0x06, 'public key algorithm id'));
  if (id === OID.ed25519) return 'ed25519';
  if (id === OID.ecPublicKey) {
    const curve = readOid(expect(params, 0x06, 'named curve'));
    return `ecdsa-${CURVE_NAMES[curve] ?? curve}`;
  }
  if (id === OID.rsaEncryption) {
    const rsa = read(expect(key, 0x03, 'public key').value.subarray(1));
    const modulus = expect(children(expect(rsa, 0x30, 'rsa public key'))[0], 0x02, 'rsa modulus').value;
    let i = 0;
    while (i < modulus.length && modulus[i] === 0) i++;
    const top = modulus[i] ?? 0;
    return `rsa-${(modulus.length - i) * 8 - (8 - (top ? Math.floor(Math.log2(top)) + 1 : 0))}`;
  }
  throw new PKIError('unsupported-key', `unsupported public key algorithm ${id}`);
}
