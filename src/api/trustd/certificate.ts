// What trustd's Certificate RPC does with a worker's CSR (upstream internal/app/trustd/internal/reg):
// sign it with the OS CA as a serverAuth-only certificate, its Organizations removed, and hand back the
// accepted CAs with it. Pure apart from the signature's randomness; the server supplies the root.
import type { OSRootSpec } from '../../../resources/secrets/index.js';
import {
  type CertificateRequestInfo,
  decodePEM,
  loadIssuer,
  PEMLabel,
  parseCertificateRequest,
  profiles,
  signCertificateRequest,
} from '../../pki/index.js';
import { ApiError } from '../errors.js';

/** TrustdRoot is the part of OSRootSecrets trustd reads at each call. */
export type TrustdRoot = Pick<OSRootSpec, 'issuingCA' | 'acceptedCAs' | 'token'>;

export interface SignedCSR {
  /** the accepted CAs' PEM, concatenated as upstream joins them (no separator) */
  readonly ca: string;
  readonly crt: string;
  /** what was asked for, for the log line */
  readonly request: CertificateRequestInfo;
}

/**
 * signWorkerCSR answers a CSR. Organizations would be Talos API roles, so a worker could mint itself an
 * admin identity: they are dropped rather than refused, as upstream does, because older workers put one
 * in and would then never get a certificate; serverAuth alone keeps the result useless as a client.
 * Errors carry upstream's status and text: InvalidArgument for a CSR that does not decode or parse,
 * Internal when signing fails.
 */
export function signWorkerCSR(root: TrustdRoot, csr: string, now?: Date): SignedCSR {
  try {
    decodePEM(csr, 'CSR', [PEMLabel.certificateRequest]);
  } catch {
    throw new ApiError('invalid-argument', 'failed to decode CSR');
  }
  let request: CertificateRequestInfo;
  try {
    request = parseCertificateRequest(csr, 'CSR');
  } catch (cause) {
    throw new ApiError('invalid-argument', `failed to parse CSR: ${(cause as Error).message}`, { cause });
  }
  let crt: string;
  try {
    if (!root.issuingCA) throw new Error('no issuing CA on this node (machine.ca.key is empty)');
    crt = signCertificateRequest(loadIssuer(root.issuingCA, 'os ca'), csr, {
      ...profiles.trustdSigning(),
      ...(now ? { now } : {}),
    });
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError('internal', `failed to sign CSR: ${why}`, { cause });
  }
  return { ca: root.acceptedCAs.map((c) => c.crt).join(''), crt, request };
}
