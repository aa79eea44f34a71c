import { Metadata } from '@grpc/grpc-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorize, isAllowed } from '../../../src/api/auth/authorize.js';
import { callerFromCertificate, rolesFromOrganizations } from '../../../src/api/auth/roles.js';
import { isPermissionDenied, isUnauthenticated } from '../../../src/api/errors.js';
import { parseCertificate, Role } from '../../../src/pki/index.js';
import { mintPKI, type TestPKI } from '../fixtures.js';

const M = (m: string) => `/machine.MachineService/${m}`;

describe('isAllowed', () => {
  it('grants by any matching role and falls back to admin-only', () => {
    expect(isAllowed(M('EtcdSnapshot'), new Set([Role.etcdBackup]), 'normal')).toBe(true);
    expect(isAllowed(M('EtcdSnapshot'), new Set([Role.reader]), 'normal')).toBe(false);
    expect(isAllowed('/machine.MachineService/NoSuchMethod', new Set([Role.operator]), 'normal')).toBe(false);
    expect(isAllowed('/machine.MachineService/NoSuchMethod', new Set([Role.admin]), 'normal')).toBe(true);
  });
  it('lets a maintenance reader apply a config or power off, and nothing else that writes', () => {
    const reader = new Set<string>([Role.reader]);
    expect(isAllowed(M('ApplyConfiguration'), reader, 'maintenance')).toBe(true);
    expect(isAllowed(M('Shutdown'), reader, 'maintenance')).toBe(true);
    expect(isAllowed(M('Shutdown'), reader, 'normal')).toBe(false);
    expect(isAllowed(M('Reboot'), reader, 'maintenance')).toBe(false);
    expect(isAllowed(M('ApplyConfiguration'), reader, 'normal')).toBe(false);
    expect(isAllowed(M('Reset'), reader, 'maintenance')).toBe(false);
    expect(isAllowed('/storage.StorageService/BlockDeviceWipe', reader, 'maintenance')).toBe(false);
  });
  it('grants nothing for unknown roles', () => {
    expect(isAllowed(M('Version'), new Set(['os:wizard']), 'normal')).toBe(false);
  });
});

describe('roles from certificates', () => {
  let pki: TestPKI;
  beforeAll(async () => {
    pki = await mintPKI();
  });
  const peer = (crt: string) => ({ raw: parseCertificate(crt).der }) as never;
  const md = (roles: string[]) => {
    const m = new Metadata();
    for (const r of roles) m.add('talos-role', r);
    return m;
  };

  it('ignores empty Organizations', () => {
    expect([...rolesFromOrganizations(['', ' os:reader '])]).toEqual([Role.reader]);
  });
  it('takes a proxy`s talos-role, comma-folded or repeated', () => {
    const c = callerFromCertificate(peer(pki.impersonator.crt), md([`${Role.operator}, ${Role.reader}`]));
    expect(c.impersonated).toBe(true);
    expect([...c.roles]).toEqual([Role.operator, Role.reader]);
  });
  it('without talos-role a proxy is only itself, which grants nothing', () => {
    const c = callerFromCertificate(peer(pki.impersonator.crt), new Metadata());
    expect([...c.roles]).toEqual([Role.impersonator]);
    expect(() => authorize(M('Version'), c, 'normal')).toThrow(/not authorized/);
    try {
      authorize(M('Version'), c, 'normal');
    } catch (err) {
      expect(isPermissionDenied(err)).toBe(true);
    }
  });
  it('refuses a missing certificate and one that is not exactly for client auth', () => {
    expect(() => callerFromCertificate(undefined, new Metadata())).toThrow(/no client certificate/);
    let caught: unknown;
    try {
      callerFromCertificate(peer(pki.dualUsage.crt), new Metadata());
    } catch (err) {
      caught = err;
    }
    expect(isUnauthenticated(caught)).toBe(true);
  });
});
