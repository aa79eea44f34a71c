// Who is calling: roles from the verified client certificate's Organizations, or from `talos-role` when the
// caller is a trusted proxy (os:impersonator), or a fixed reader in maintenance mode.
import type { PeerCertificate } from 'node:tls';
import type { Metadata } from '@grpc/grpc-js';
import { type CertificateInfo, parseCertificateDER, Role } from '../../pki/index.js';
import { ApiError } from '../errors.js';

/** The metadata key a proxy passes the original caller's roles in. */
export const ROLE_METADATA_KEY = 'talos-role';

export interface Caller {
  readonly roles: ReadonlySet<string>;
  /** the certificate subject, for messages; empty in maintenance mode */
  readonly subject: string;
  /** true when the roles came from `talos-role` on behalf of someone else */
  readonly impersonated: boolean;
}

const KNOWN: ReadonlySet<string> = new Set(Object.values(Role));

/** rolesFromOrganizations keeps every non-empty `os:` entry; unknown roles are kept but grant nothing. */
export const rolesFromOrganizations = (orgs: readonly string[]): Set<string> =>
  new Set(orgs.map((o) => o.trim()).filter((o) => o !== ''));

/** isKnownRole says whether a role is one the rules table can grant. */
export const isKnownRole = (r: string): boolean => KNOWN.has(r);

/** checkClientUsage refuses certificates whose extended key usage is not exactly clientAuth, as apid does. */
export function checkClientUsage(cert: CertificateInfo): void {
  const eku = cert.extKeyUsage;
  if (eku.length !== 1 || eku[0] !== 'clientAuth')
    throw new ApiError(
      'unauthenticated',
      `certificate ${cert.subject.commonName ?? cert.serialNumber} is missing the client auth extended key usage`,
    );
}

/** splitMetadataList reads a possibly repeated key whose values Node may have folded into `a, b`. */
export function splitMetadataList(md: Metadata, key: string): string[] {
  return md
    .get(key)
    .flatMap((v) => (typeof v === 'string' ? v : v.toString('utf8')).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** callerFromCertificate derives the caller of a normal-mode call from its verified peer certificate. */
export function callerFromCertificate(peer: PeerCertificate | undefined, md: Metadata): Caller {
  if (!peer?.raw || peer.raw.length === 0)
    throw new ApiError('unauthenticated', 'no client certificate presented');
  let cert: CertificateInfo;
  try {
    cert = parseCertificateDER(peer.raw, 'client certificate');
  } catch (cause) {
    throw new ApiError('unauthenticated', 'client certificate cannot be parsed', { cause });
  }
  checkClientUsage(cert);
  const subject = cert.subject.commonName ?? cert.serialNumber;
  const own = rolesFromOrganizations(cert.subject.organizations);
  // Only a proxy's certificate may speak for somebody else; anyone else's talos-role is ignored.
  if (own.has(Role.impersonator) && md.get(ROLE_METADATA_KEY).length > 0)
    return { roles: new Set(splitMetadataList(md, ROLE_METADATA_KEY)), subject, impersonated: true };
  return { roles: own, subject, impersonated: false };
}

/** MAINTENANCE_CALLER is everybody in maintenance mode: no certificate, reader rights. */
export const MAINTENANCE_CALLER: Caller = Object.freeze({
  roles: new Set<string>([Role.reader]),
  subject: '',
  impersonated: false,
});
