import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAndKey,
  type Clock,
  halfLife,
  issueCertificate,
  needsRenewal,
  newCertificateAuthority,
  parseCertificate,
  profiles,
  renewalDelayMs,
} from '../../src/pki/index.js';

const issuedAt = new Date('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;
let ca: CertificateAndKey;
let apid: CertificateAndKey;

beforeAll(async () => {
  ca = await newCertificateAuthority({ organizations: ['talos'], now: issuedAt });
  apid = await issueCertificate(ca, {
    ...profiles.apidServer({ dnsNames: ['n'], ipAddresses: ['10.0.0.1'] }, 'n'),
    now: issuedAt,
  });
});

/** a clock the test moves by hand */
function manualClock(start: Date): Clock & { advance(ms: number): void } {
  let t = start.getTime();
  const advance = (ms: number) => {
    t += ms;
  };
  return Object.assign(() => new Date(t), { advance });
}

describe('renewal at half-life', () => {
  it('puts the half-life of a 24 h apid certificate 12 h after issue', () => {
    expect(halfLife(apid.crt)).toEqual(new Date(issuedAt.getTime() + 12 * HOUR));
  });

  it('asks for renewal exactly from the half-life on, driven by an injected clock', () => {
    const clock = manualClock(issuedAt);
    const info = parseCertificate(apid.crt);
    expect(needsRenewal(info, clock())).toBe(false);
    expect(renewalDelayMs(info, clock())).toBe(12 * HOUR);
    clock.advance(12 * HOUR - 1);
    expect(needsRenewal(info, clock())).toBe(false);
    expect(renewalDelayMs(info, clock())).toBe(1);
    clock.advance(1);
    expect(needsRenewal(info, clock())).toBe(true);
    expect(renewalDelayMs(info, clock())).toBe(0);
    clock.advance(24 * HOUR); // long expired: still renew
    expect(needsRenewal(info, clock())).toBe(true);
  });

  it('asks for renewal when the clock is before notBefore (time stepped back)', () => {
    expect(needsRenewal(apid.crt, new Date(issuedAt.getTime() - 1000))).toBe(true);
  });

  it('gives a 10-year CA a 5-year half-life', () => {
    const h = halfLife(ca.crt);
    expect(h.getTime() - issuedAt.getTime()).toBe(43_800 * HOUR);
    expect(needsRenewal(ca.crt, new Date(issuedAt.getTime() + 43_800 * HOUR - 1))).toBe(false);
  });

  it('counts a backdated kubeconfig certificate from its real notBefore', async () => {
    const kc = await issueCertificate(ca, {
      ...profiles.kubeconfigClient('system:kube-scheduler', 'system:kube-scheduler'),
      now: issuedAt,
    });
    const info = parseCertificate(kc.crt);
    expect(info.notBefore).toEqual(new Date(issuedAt.getTime() - 10_000));
    expect(halfLife(info).getTime()).toBe((info.notBefore.getTime() + info.notAfter.getTime()) / 2);
  });
});
