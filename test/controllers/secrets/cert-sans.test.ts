// SAN sets: pure merges as upstream's controllers build them, and the two controllers that publish them.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  APICertSANsController,
  apiCertSANs,
  KubernetesCertSANsController,
  kubernetesCertSANs,
  MaintenanceCertSANsController,
  maintenanceCertSANs,
} from '../../../controllers/secrets/index.js';
import { NodeAddress } from '../../../resources/network/index.js';
import { CertSAN, KubernetesRoot, OSRoot } from '../../../resources/secrets/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { hostname, nodeAddresses, startRuntime } from './env.js';

const host = { hostname: 'cp1', domainname: 'example.com' };
const osRoot = { certSANIPs: ['10.9.9.9'], certSANDNSNames: ['api.example.com'] };
const k8sRoot = {
  endpoint: 'https://cp.example.com:6443',
  certSANs: ['10.9.9.9', 'extra.example.com'],
  dnsDomain: 'cluster.local',
  apiServerIPs: ['10.96.0.1'],
};

describe('apiCertSANs', () => {
  it.each([
    [
      'machine certSANs, addresses, loopback, hostname and FQDN, sorted',
      osRoot,
      host,
      ['10.5.0.2/24', 'fd00::2/64'],
      {
        ips: ['10.5.0.2', '10.9.9.9', '127.0.0.1', 'fd00::2'],
        dnsNames: ['api.example.com', 'cp1', 'cp1.example.com'],
        fqdn: 'cp1.example.com',
      },
    ],
    [
      'duplicates collapse and a bare hostname is its own FQDN',
      { certSANIPs: ['10.5.0.2'], certSANDNSNames: ['cp1'] },
      { hostname: 'cp1', domainname: '' },
      ['10.5.0.2/24'],
      { ips: ['10.5.0.2', '127.0.0.1'], dnsNames: ['cp1'], fqdn: 'cp1' },
    ],
  ])('%s', (_, root, h, addresses, want) => {
    expect(apiCertSANs(root, h, { addresses })).toEqual(want);
  });
});

describe('kubernetesCertSANs', () => {
  it('adds the endpoint host, the kubernetes service names, service IPs and loopback', () => {
    expect(kubernetesCertSANs(k8sRoot, host, { addresses: ['10.5.0.2/24'] })).toEqual({
      ips: ['10.5.0.2', '10.9.9.9', '10.96.0.1', '127.0.0.1'],
      dnsNames: [
        'cp.example.com',
        'cp1',
        'cp1.example.com',
        'extra.example.com',
        'kubernetes',
        'kubernetes.default',
        'kubernetes.default.svc',
        'kubernetes.default.svc.cluster.local',
        'localhost',
      ],
      fqdn: '',
    });
  });

  it('takes an IP endpoint as an IP SAN', () => {
    const sans = kubernetesCertSANs({ ...k8sRoot, endpoint: 'https://[fd00::10]:6443' }, host, {
      addresses: [],
    });
    expect(sans.ips).toContain('fd00::10');
  });
});

describe('secrets.APICertSANsController', () => {
  it('publishes CertSANs(api) once the root, hostname and addresses exist, and drops it with the root', async ({
    signal,
  }) => {
    const env = startRuntime([APICertSANsController]);
    onTestFinished(env.stop);
    const root = OSRoot.new('secrets', 'os', { ...OSRoot.codec.empty(), ...osRoot });
    await env.state.create(root);
    await env.state.create(hostname('cp1', 'example.com'));
    await env.state.create(nodeAddresses('10.5.0.2/24'));
    await assertResource(env.state, CertSAN, 'api', (r) => expect(r.spec.fqdn).toBe('cp1.example.com'), {
      signal,
    });
    await env.state.destroy(root.metadata);
    await assertNoResource(env.state, CertSAN, 'api', { signal });
  });
});

describe('secrets.KubernetesCertSANsController', () => {
  it('publishes CertSANs(k8s) from the Kubernetes root and the node identity', async ({ signal }) => {
    const env = startRuntime([KubernetesCertSANsController]);
    onTestFinished(env.stop);
    await env.state.create(
      KubernetesRoot.new('secrets', 'k8s', { ...KubernetesRoot.codec.empty(), ...k8sRoot }),
    );
    await env.state.create(hostname('cp1'));
    await env.state.create(nodeAddresses('10.5.0.2/24'));
    await assertResource(
      env.state,
      CertSAN,
      'k8s',
      (r) => expect(r.spec.dnsNames).toContain('kubernetes.default.svc.cluster.local'),
      { signal },
    );
  });
});

describe('maintenanceCertSANs', () => {
  it('names the addresses, both loopbacks and the host, under the maintenance service CN', () => {
    expect(maintenanceCertSANs(host, { addresses: ['10.5.0.2/24'] })).toEqual({
      ips: ['10.5.0.2', '127.0.0.1', '::1'],
      dnsNames: ['cp1', 'cp1.example.com'],
      fqdn: 'maintenance-service.talos.dev',
    });
    expect(maintenanceCertSANs(undefined, { addresses: [] }).dnsNames).toEqual([]);
  });
});

describe('secrets.MaintenanceCertSANsController', () => {
  it('publishes CertSANs(maintenance) from the addresses alone', async ({ signal }) => {
    const env = startRuntime([MaintenanceCertSANsController]);
    onTestFinished(env.stop);
    await env.state.create(NodeAddress.new('network', 'accumulative', { addresses: ['10.5.0.2/24'] }));
    await assertResource(env.state, CertSAN, 'maintenance', (r) => expect(r.spec.ips).toContain('10.5.0.2'), {
      signal,
    });
    await env.state.create(hostname('node-1'));
    await assertResource(
      env.state,
      CertSAN,
      'maintenance',
      (r) => expect(r.spec.dnsNames).toEqual(['node-1']),
      {
        signal,
      },
    );
  });
});
