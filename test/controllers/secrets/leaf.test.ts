// The re-issue decision and the renewal wake-up, as pure functions of certificates and time.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ensureLeaf,
  nextRenewalMs,
  reissueReason,
  renewalTimer,
} from '../../../controllers/secrets/index.js';
import {
  type CertificateAndKey,
  type Issuer,
  loadIssuer,
  newCertificateAuthority,
  profiles,
} from '../../../src/pki/index.js';
import { fakeClock } from './env.js';

const HOUR = 3_600_000;
const T0 = new Date('2026-06-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const sans = { dnsNames: ['node', 'node.example.com'], ipAddresses: ['10.0.0.1', 'fd00::1'] };
const want = profiles.apidServer(sans, 'node.example.com');

let ca: Issuer;
let other: Issuer;
let leaf: CertificateAndKey;
beforeAll(async () => {
  ca = loadIssuer(await newCertificateAuthority({ organizations: ['talos'], now: T0 }));
  other = loadIssuer(await newCertificateAuthority({ organizations: ['talos'], now: T0 }));
  leaf = await ensureLeaf(null, want, ca, T0);
});

describe('reissueReason', () => {
  it.each([
    ['keeps a fresh certificate with the same identity', () => want, 1 * HOUR, undefined],
    [
      'keeps IPv6 SANs spelled differently',
      () => ({ ...want, ipAddresses: ['10.0.0.1', 'FD00:0::1'] }),
      0,
      undefined,
    ],
    [
      'keeps SANs given in another order',
      () => ({ ...want, dnsNames: ['node.example.com', 'node'] }),
      0,
      undefined,
    ],
    ['renews at the half-life', () => want, 12 * HOUR, 'renewal'],
    ['renews a certificate from the future (clock stepped back)', () => want, -HOUR, 'renewal'],
    ['re-issues when a DNS name is added', () => ({ ...want, dnsNames: [...sans.dnsNames, 'x'] }), 0, 'sans'],
    ['re-issues when an IP goes away', () => ({ ...want, ipAddresses: ['10.0.0.1'] }), 0, 'sans'],
    ['re-issues when the common name changes', () => ({ ...want, commonName: 'other' }), 0, 'subject'],
    ['re-issues when organizations change', () => ({ ...want, organizations: ['os:admin'] }), 0, 'subject'],
  ] as const)('%s', (_, wanted, offset, reason) => {
    expect(reissueReason(leaf, wanted(), ca.certificate, at(offset))).toBe(reason);
  });

  it('re-issues what is missing, unreadable or signed by another CA', () => {
    expect(reissueReason(null, want, ca.certificate, T0)).toBe('missing');
    expect(reissueReason({ crt: leaf.crt, key: '' }, want, ca.certificate, T0)).toBe('missing');
    expect(reissueReason({ crt: 'garbage', key: leaf.key }, want, ca.certificate, T0)).toBe('unreadable');
    expect(reissueReason(leaf, want, other.certificate, T0)).toBe('issuer');
  });
});

describe('ensureLeaf', () => {
  it('returns the same pair while it may stay, and a new one issued at `now` when due', async () => {
    expect(await ensureLeaf(leaf, want, ca, at(HOUR))).toBe(leaf);
    const renewed = await ensureLeaf(leaf, want, ca, at(12 * HOUR));
    expect(renewed.crt).not.toBe(leaf.crt);
    expect(reissueReason(renewed, want, ca.certificate, at(12 * HOUR))).toBeUndefined();
  });
});

describe('nextRenewalMs', () => {
  it('is the time to the earliest half-life, 0 when one is due, undefined for none', () => {
    expect(nextRenewalMs([], T0)).toBeUndefined();
    expect(nextRenewalMs([null, undefined], T0)).toBeUndefined();
    expect(nextRenewalMs([leaf.crt], at(2 * HOUR))).toBe(10 * HOUR);
    expect(nextRenewalMs([leaf.crt, null], at(13 * HOUR))).toBe(0);
  });
});

describe('renewalTimer', () => {
  it('keeps one timer, fires a reconcile at the half-life and cancels on stop', () => {
    const clock = fakeClock(T0);
    let queued = 0;
    const timer = renewalTimer({ queueReconcile: () => queued++ }, clock);
    timer.arm([leaf.crt]);
    timer.arm([leaf.crt]);
    expect(clock.pending()).toBe(1);
    clock.advance(12 * HOUR - 1);
    expect(queued).toBe(0);
    clock.advance(1);
    expect(queued).toBe(1);
    timer.arm([leaf.crt]);
    timer.stop();
    expect(clock.pending()).toBe(0);
  });
});
