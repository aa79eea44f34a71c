// X.509 v3 extensions Keel writes: key usage, extended key usage, basic constraints, key identifiers, SANs.
// Each returns one encoded Extension; criticality follows Go's crypto/x509.
import { PKIError } from './errors.js';
import { bitString, boolean, implicit, octetString, oid, sequence, tlv } from './internal/der.js';
import { ipToBytes } from './internal/ip.js';
import { OID } from './internal/oids.js';

/** KeyUsage bits in RFC 5280 order; `certSign` is keyCertSign and `crlSign` is cRLSign. */
export const KEY_USAGES = [
  'digitalSignature',
  'contentCommitment',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'certSign',
  'crlSign',
  'encipherOnly',
  'decipherOnly',
] as const;
export type KeyUsage = (typeof KEY_USAGES)[number];

export type ExtKeyUsage = 'serverAuth' | 'clientAuth';
export const EXT_KEY_USAGE_OIDS: Record<ExtKeyUsage, string> = {
  serverAuth: OID.serverAuth,
  clientAuth: OID.clientAuth,
};

const extension = (id: string, critical: boolean, value: Buffer) =>
  critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));

/** keyUsageExtension is critical and drops trailing zero bits, as DER's named BIT STRING rule asks. */
export function keyUsageExtension(usages: readonly KeyUsage[]): Buffer {
  let bits = 0;
  for (const u of usages) bits |= 1 << (15 - KEY_USAGES.indexOf(u));
  const bytes = bits & 0xff ? [bits >> 8, bits & 0xff] : [bits >> 8];
  const last = bytes[bytes.length - 1]!;
  let unused = 0;
  while (unused < 8 && !(last & (1 << unused))) unused++;
  return extension(OID.keyUsage, true, bitString(Buffer.from(bytes), last === 0 ? 0 : unused));
}

export const extKeyUsageExtension = (usages: readonly ExtKeyUsage[]): Buffer =>
  extension(OID.extKeyUsage, false, sequence(...usages.map((u) => oid(EXT_KEY_USAGE_OIDS[u]))));

/** basicConstraintsCA marks a CA, critical and without a path length limit, as upstream CAs are. */
export const basicConstraintsCA = (): Buffer =>
  extension(OID.basicConstraints, true, sequence(boolean(true)));

export const subjectKeyIdentifier = (id: Uint8Array): Buffer =>
  extension(OID.subjectKeyIdentifier, false, octetString(id));

export const authorityKeyIdentifier = (id: Uint8Array): Buffer =>
  extension(OID.authorityKeyIdentifier, false, sequence(implicit(0, id)));

/**
 * subjectAltName carries DNS names ([2] IA5String) then IP addresses ([7] OCTET STRING); it is
 * critical only when the subject is empty, as RFC 5280 §4.2.1.6 requires.
 */
export function subjectAltName(
  dnsNames: readonly string[],
  ips: readonly string[],
  subjectEmpty: boolean,
): Buffer {
  const names: Buffer[] = [];
  for (const d of dnsNames) {
    if (!d || !/^[\x21-\x7e]+$/.test(d))
      throw new PKIError('invalid-option', `dns name ${JSON.stringify(d)}: not a host name`);
    names.push(implicit(2, Buffer.from(d, 'ascii')));
  }
  for (const ip of ips) {
    const b = ipToBytes(ip);
    if (!b) throw new PKIError('invalid-option', `ip address ${JSON.stringify(ip)}: not an IP address`);
    names.push(implicit(7, b));
  }
  return extension(OID.subjectAltName, subjectEmpty, tlv(0x30, Buffer.concat(names)));
}
