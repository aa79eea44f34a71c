// Leaf certificates that live in resources: when to re-issue one, and issuing it if so.
// The decision is a pure function of the current certificate, the wanted identity, the CA and the time.
import { canonicalIP } from '../../../resources/network/ip.js';
import {
  type CertificateAndKey,
  type CertificateInfo,
  type Issuer,
  issueCertificate,
  type LeafOptions,
  needsRenewal,
  parseCertificate,
  renewalDelayMs,
} from '../../../src/pki/index.js';

/** LeafTemplate is what a profile returns: identity, usages and lifetime, without the time. */
export type LeafTemplate = Omit<LeafOptions, 'now' | 'signal'>;

export type ReissueReason = 'missing' | 'unreadable' | 'issuer' | 'subject' | 'sans' | 'renewal';

const sameSet = (a: readonly string[] = [], b: readonly string[] = []): boolean => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * reissueReason says why `current` cannot stay, or undefined when it can: it is absent or unreadable,
 * another CA signed it, its subject or SANs differ from `want`, or it reached its half-life.
 */
export function reissueReason(
  current: CertificateAndKey | null | undefined,
  want: LeafTemplate,
  ca: CertificateInfo,
  now: Date,
): ReissueReason | undefined {
  if (!current?.crt || !current.key) return 'missing';
  let info: CertificateInfo;
  try {
    info = parseCertificate(current.crt);
  } catch {
    return 'unreadable';
  }
  if (!info.issuer.der.equals(ca.subject.der)) return 'issuer';
  if (info.authorityKeyId && ca.subjectKeyId && info.authorityKeyId !== ca.subjectKeyId) return 'issuer';
  if ((info.subject.commonName ?? '') !== (want.commonName ?? '')) return 'subject';
  if (!sameSet(info.subject.organizations, want.organizations)) return 'subject';
  if (!sameSet(info.dnsNames, want.dnsNames)) return 'sans';
  if (!sameSet(info.ipAddresses.map(canonicalIP), (want.ipAddresses ?? []).map(canonicalIP))) return 'sans';
  if (needsRenewal(info, now)) return 'renewal';
  return undefined;
}

/** ensureLeaf keeps `current` when it may stay, and otherwise issues a fresh one from `issuer` at `now`. */
export async function ensureLeaf(
  current: CertificateAndKey | null | undefined,
  want: LeafTemplate,
  issuer: Issuer,
  now: Date,
  signal?: AbortSignal,
): Promise<CertificateAndKey> {
  if (current && reissueReason(current, want, issuer.certificate, now) === undefined) return current;
  return issueCertificate(issuer, { ...want, now, ...(signal ? { signal } : {}) });
}

/** nextRenewalMs is the time until the first of `certs` reaches its half-life; undefined for none. */
export function nextRenewalMs(certs: readonly (string | null | undefined)[], now: Date): number | undefined {
  let next: number | undefined;
  for (const crt of certs) {
    if (!crt) continue;
    const d = renewalDelayMs(crt, now);
    next = next === undefined ? d : Math.min(next, d);
  }
  return next;
}
