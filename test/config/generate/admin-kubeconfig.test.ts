// The admin kubeconfig: what it reads from a config (endpoint, CAs, lifetime) and the certificate it mints.
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ADMIN_KUBECONFIG_DEFAULT_LIFETIME_MS,
  adminKubeconfigPlan,
  mintAdminKubeconfig,
} from '../../../src/config/generate/admin-kubeconfig.js';
import {
  type Config,
  ConfigError,
  generateConfigs,
  mintSecrets,
  v1alpha1Of,
} from '../../../src/config/index.js';
import { parseCertificate } from '../../../src/pki/index.js';

let controlplane: Config;
let worker: Config;
const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

beforeAll(async () => {
  const secrets = await mintSecrets();
  ({ controlplane, worker } = generateConfigs({
    clusterName: 'demo',
    endpoint: 'https://10.5.0.2:6443',
    secrets,
  }));
});

/** withCluster copies a config with its cluster section changed. */
const withCluster = (cfg: Config, change: (c: Record<string, unknown>) => void): Config => {
  const copy = structuredClone(cfg);
  change(v1alpha1Of(copy)!.cluster as Record<string, unknown>);
  return copy;
};

describe('adminKubeconfigPlan', () => {
  it('reads the cluster name, endpoint and CA, with the default lifetime of one year', () => {
    const plan = adminKubeconfigPlan(controlplane);
    const ca = v1alpha1Of(controlplane)!.cluster!.ca!;
    expect(plan).toEqual({
      cluster: 'demo',
      endpoint: 'https://10.5.0.2:6443',
      issuingCA: { crt: pem(ca.crt!), key: pem(ca.key!) },
      caPEM: pem(ca.crt!),
      lifetimeMs: ADMIN_KUBECONFIG_DEFAULT_LIFETIME_MS,
    });
  });

  it('takes cluster.adminKubeconfig.certLifetime, "0" meaning the default', () => {
    const life = (v: string) =>
      adminKubeconfigPlan(withCluster(controlplane, (c) => (c.adminKubeconfig = { certLifetime: v })))
        .lifetimeMs;
    expect(life('2h')).toBe(2 * 3_600_000);
    expect(life('0')).toBe(ADMIN_KUBECONFIG_DEFAULT_LIFETIME_MS);
  });

  it('trusts the accepted CAs before the issuing one', () => {
    const other = v1alpha1Of(controlplane)!.machine!.ca!.crt!;
    const plan = adminKubeconfigPlan(withCluster(controlplane, (c) => (c.acceptedCAs = [{ crt: other }])));
    expect(plan.caPEM).toBe(pem(other) + plan.issuingCA.crt);
  });

  it('refuses a config without the CA key (a worker) naming the field', () => {
    expect(() => adminKubeconfigPlan(worker)).toThrow(ConfigError);
    expect(() => adminKubeconfigPlan(worker)).toThrow(/cluster\.ca/);
  });
});

describe('mintAdminKubeconfig', () => {
  it('issues CN admin, O system:masters from the cluster CA, for the lifetime, in a kubeconfig for the endpoint', async () => {
    const plan = { ...adminKubeconfigPlan(controlplane), lifetimeMs: 2 * 3_600_000 };
    const now = new Date('2026-01-02T03:04:05Z');
    const doc = parse(await mintAdminKubeconfig(plan, { now }));
    expect(doc['current-context']).toBe('admin@demo');
    expect(doc.clusters).toEqual([
      {
        name: 'demo',
        cluster: {
          server: 'https://10.5.0.2:6443',
          'certificate-authority-data': Buffer.from(plan.caPEM).toString('base64'),
        },
      },
    ]);
    expect(doc.contexts).toEqual([
      { name: 'admin@demo', context: { cluster: 'demo', namespace: 'default', user: 'admin@demo' } },
    ]);
    const user = doc.users[0];
    expect(user.name).toBe('admin@demo');
    const crt = pem(user.user['client-certificate-data']);
    const cert = parseCertificate(crt);
    expect(cert.subject.commonName).toBe('admin');
    expect(cert.subject.organizations).toEqual(['system:masters']);
    expect(cert.extKeyUsage).toEqual(['clientAuth']);
    // backdated 10 s for clock skew, the lifetime counted from now
    expect(cert.notBefore.getTime()).toBe(now.getTime() - 10_000);
    expect(cert.notAfter.getTime()).toBe(now.getTime() + 2 * 3_600_000);
    expect(new X509Certificate(crt).verify(new X509Certificate(plan.issuingCA.crt).publicKey)).toBe(true);
  });
});
