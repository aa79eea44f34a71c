// When to re-issue: at half of a certificate's lifetime, which is when upstream's refresh tickers fire.
// Pure functions of the certificate and a time; the caller's clock supplies `now`.
import { asCertificateInfo, type CertificateInput } from './parse.js';

/** Clock returns the current time; inject a fixed one in tests. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** halfLife is the midpoint of notBefore and notAfter. */
export function halfLife(cert: CertificateInput): Date {
  const { notBefore, notAfter } = asCertificateInfo(cert);
  return new Date(notBefore.getTime() + (notAfter.getTime() - notBefore.getTime()) / 2);
}

/**
 * needsRenewal is true from the half-life on, and also while `now` is before notBefore: a clock that
 * stepped back (time sync) would otherwise leave a certificate that peers reject as not yet valid.
 */
export function needsRenewal(cert: CertificateInput, now: Date = systemClock()): boolean {
  const info = asCertificateInfo(cert);
  return now.getTime() < info.notBefore.getTime() || now.getTime() >= halfLife(info).getTime();
}

/** renewalDelayMs is how long until needsRenewal turns true (0 if it already is), for a timer. */
export function renewalDelayMs(cert: CertificateInput, now: Date = systemClock()): number {
  const info = asCertificateInfo(cert);
  return needsRenewal(info, now) ? 0 : halfLife(info).getTime() - now.getTime();
}
