// One runtime test per certificate controller, each checking what it minted with openssl: chain,
// purpose, key type, extended key usage, SANs and validity.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  apiCertSANs,
  etcdRootOf,
  kubeconfigClient,
  kubernetesCertSANs,
  kubernetesRootOf,
  maintenanceCertSANs,
  newAPIController,
  newEtcdController,
  newKubernetesController,
  newKubernetesDynamicCertsController,
  newMaintenanceRootController,
  newTrustdController,
  osRootOf,
} from '../../../controllers/secrets/index.js';
import { MachineType } from '../../../resources/config/index.js';
import {
  API,
  CertSAN,
  Etcd,
  EtcdRoot,
  Kubernetes,
  KubernetesDynamicCerts,
  KubernetesRoot,
  MaintenanceRoot,
  OSRoot,
  Trustd,
} from '../../../resources/secrets/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { parseCertificate } from '../../../src/pki/index.js';
import { type Cluster, hostname, mintCluster, nodeAddresses, startRuntime } from './env.js';
import { verifyLeaf } from './openssl.js';

const HOUR = 3_600_000;
const SERVER = 'TLS Web Server Authentication';
const CLIENT = 'TLS Web Client Authentication';
const BOTH = `${SERVER}, ${CLIENT}`;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
});

const host = hostname('cp1', 'example.com').spec;
const addrs = nodeAddresses('10.5.0.2/24', 'fd00::2/64').spec;
const lifetime = (v: { view: { notBefore: Date; notAfter: Date } }) =>
  v.view.notAfter.getTime() - v.view.notBefore.getTime();
const present = <T>(v: T | null | undefined): T => {
  if (v === null || v === undefined) throw new Error('not minted yet');
  return v;
};

describe('secrets.APIController', () => {
  it('mints the apid server and client certificates from the OS CA (ed25519)', async ({ signal }) => {
    const root = osRootOf(cluster.controlplane);
    const env = startRuntime([newAPIController()]);
    onTestFinished(env.stop);
    await env.state.create(MachineType.new('config', 'machine-type', { type: 'controlplane' }));
    await env.state.create(OSRoot.new('secrets', 'os', root));
    await env.state.create(CertSAN.new('secrets', 'api', apiCertSANs(root, host, addrs)));
    const api = await assertResource(env.state, API, 'api', (r) => expect(r.spec.client).not.toBeNull(), {
      signal,
    });
    const ca = present(root.issuingCA).crt;
    const server = await verifyLeaf(ca, present(api.spec.server), 'sslserver');
    expect(server.view.publicKeyAlgorithm).toBe('ED25519');
    expect(server.view.subject).toBe('CN = cp1.example.com');
    expect(server.view.ext['X509v3 Extended Key Usage']).toBe(SERVER);
    expect(server.sans).toEqual(
      expect.arrayContaining([
        'DNS:api.example.com',
        'DNS:cp1',
        'DNS:cp1.example.com',
        'IP Address:10.5.0.2',
        'IP Address:10.9.9.9',
        'IP Address:127.0.0.1',
        'IP Address:FD00:0:0:0:0:0:0:2',
      ]),
    );
    expect(lifetime(server)).toBe(24 * HOUR);
    const client = await verifyLeaf(ca, present(api.spec.client), 'sslclient');
    expect(client.view.subject).toBe('O = os:impersonator, CN = cp1.example.com');
    expect(client.view.ext['X509v3 Extended Key Usage']).toBe(CLIENT);
    expect(client.sans).toEqual([]);
    expect(api.spec.acceptedCAs).toEqual([{ crt: ca }]);
  });
});

describe('secrets.APIController in maintenance mode', () => {
  it('serves from the maintenance CA without client verification, then re-issues from the OS CA', async ({
    signal,
  }) => {
    const env = startRuntime([newAPIController(), newMaintenanceRootController()]);
    onTestFinished(env.stop);
    await env.state.create(MachineType.new('config', 'machine-type', { type: 'unknown' }));
    await env.state.create(CertSAN.new('secrets', 'maintenance', maintenanceCertSANs(host, addrs)));
    const api = await assertResource(env.state, API, 'api', (r) => expect(r.spec.server).not.toBeNull(), {
      signal,
    });
    expect(api.spec).toMatchObject({ skipVerifyingClientCert: true, client: null, acceptedCAs: [] });
    const ca = await env.state.get(MaintenanceRoot.pointer('maintenance'));
    const server = await verifyLeaf(
      present((ca.spec as { ca: { crt: string } | null }).ca).crt,
      present(api.spec.server),
      'sslserver',
    );
    expect(server.view.subject).toBe('CN = maintenance-service.talos.dev');
    expect(server.view.ext['X509v3 Extended Key Usage']).toBe(SERVER);
    expect(server.sans).toEqual(
      expect.arrayContaining(['DNS:cp1', 'IP Address:10.5.0.2', 'IP Address:0:0:0:0:0:0:0:1']),
    );

    // the config arrives: the node becomes a control plane and apid moves to the OS CA
    const root = osRootOf(cluster.controlplane);
    await env.state.create(OSRoot.new('secrets', 'os', root));
    await env.state.create(CertSAN.new('secrets', 'api', apiCertSANs(root, host, addrs)));
    await env.state.modify(MachineType.new('config', 'machine-type'), (r) => {
      r.spec = { type: 'controlplane' };
    });
    const configured = await assertResource(
      env.state,
      API,
      'api',
      (r) => expect(r.spec.client).not.toBeNull(),
      {
        signal,
      },
    );
    expect(configured.spec.skipVerifyingClientCert).toBe(false);
    await verifyLeaf(present(root.issuingCA).crt, present(configured.spec.server), 'sslserver');
  });
});

describe('secrets.TrustdController', () => {
  it('mints trustd’s server certificate with the api SANs', async ({ signal }) => {
    const root = osRootOf(cluster.controlplane);
    const env = startRuntime([newTrustdController()]);
    onTestFinished(env.stop);
    await env.state.create(MachineType.new('config', 'machine-type', { type: 'controlplane' }));
    await env.state.create(OSRoot.new('secrets', 'os', root));
    await env.state.create(CertSAN.new('secrets', 'api', apiCertSANs(root, host, addrs)));
    const trustd = await assertResource(
      env.state,
      Trustd,
      'trustd',
      (r) => expect(r.spec.server).not.toBeNull(),
      {
        signal,
      },
    );
    const server = await verifyLeaf(present(root.issuingCA).crt, present(trustd.spec.server), 'sslserver');
    expect(server.view.publicKeyAlgorithm).toBe('ED25519');
    expect(server.view.ext['X509v3 Key Usage']).toBe('Digital Signature, Key Encipherment');
    expect(server.view.ext['X509v3 Extended Key Usage']).toBe(SERVER);
    expect(server.sans).toContain('DNS:cp1.example.com');
    expect(lifetime(server)).toBe(24 * HOUR);
  });
});

describe('secrets.EtcdController', () => {
  it('mints etcd server, peer and client certificates (ECDSA P-256)', async ({ signal }) => {
    const root = etcdRootOf(cluster.controlplane);
    const env = startRuntime([newEtcdController()]);
    onTestFinished(env.stop);
    await env.state.create(EtcdRoot.new('secrets', 'etcd', root));
    await env.state.create(hostname('cp1', 'example.com'));
    await env.state.create(nodeAddresses('10.5.0.2/24', 'fd00::2/64'));
    const etcd = await assertResource(
      env.state,
      Etcd,
      'etcd',
      (r) => expect(r.spec.etcdAPIServer).not.toBeNull(),
      {
        signal,
      },
    );
    const ca = present(root.etcdCA).crt;
    const serverCert = await verifyLeaf(ca, present(etcd.spec.etcd), 'sslserver');
    expect(serverCert.view.publicKeyAlgorithm).toBe('id-ecPublicKey');
    expect(serverCert.view.text).toContain('NIST CURVE: P-256');
    expect(serverCert.view.subject).toBe('CN = cp1');
    expect(serverCert.view.ext['X509v3 Extended Key Usage']).toBe(BOTH);
    expect([...serverCert.sans].sort()).toEqual(
      [
        'DNS:cp1',
        'DNS:cp1.example.com',
        'DNS:localhost',
        'IP Address:10.5.0.2',
        'IP Address:127.0.0.1',
        'IP Address:0:0:0:0:0:0:0:1',
        'IP Address:FD00:0:0:0:0:0:0:2',
      ].sort(),
    );
    expect(lifetime(serverCert)).toBe(87_600 * HOUR);
    const peer = await verifyLeaf(ca, present(etcd.spec.etcdPeer), 'sslclient');
    expect(peer.sans).not.toContain('DNS:localhost');
    const admin = await verifyLeaf(ca, present(etcd.spec.etcdAdmin), 'sslclient');
    expect(admin.view.subject).toBe('CN = talos');
    expect(admin.view.ext['X509v3 Extended Key Usage']).toBe(CLIENT);
    const apiServer = await verifyLeaf(ca, present(etcd.spec.etcdAPIServer), 'sslclient');
    expect(apiServer.view.subject).toBe('CN = kube-apiserver');
  });
});

describe('secrets.KubernetesDynamicCertsController', () => {
  it('mints the API server serving certificate (with its CA chain) and the client certificates', async ({
    signal,
  }) => {
    const root = kubernetesRootOf(cluster.controlplane);
    const env = startRuntime([newKubernetesDynamicCertsController()]);
    onTestFinished(env.stop);
    await env.state.create(KubernetesRoot.new('secrets', 'k8s', root));
    await env.state.create(CertSAN.new('secrets', 'k8s', kubernetesCertSANs(root, host, addrs)));
    const dyn = await assertResource(
      env.state,
      KubernetesDynamicCerts,
      'k8s-dynamic-certs',
      (r) => expect(r.spec.frontProxy).not.toBeNull(),
      { signal },
    );
    const ca = present(root.issuingCA).crt;
    const apiServer = present(dyn.spec.apiServer);
    expect(apiServer.crt.endsWith(ca)).toBe(true);
    const serving = await verifyLeaf(ca, apiServer, 'sslserver');
    expect(serving.view.publicKeyAlgorithm).toBe('id-ecPublicKey');
    expect(serving.view.subject).toBe('O = kube-master, CN = kube-apiserver');
    expect(serving.view.ext['X509v3 Extended Key Usage']).toBe(SERVER);
    expect(serving.sans).toEqual(
      expect.arrayContaining([
        'DNS:cp.example.com',
        'DNS:kubernetes.default.svc.cluster.local',
        'DNS:cp1.example.com',
        'IP Address:10.96.0.1',
        'IP Address:10.5.0.2',
        'IP Address:127.0.0.1',
      ]),
    );
    expect(lifetime(serving)).toBe(365 * 24 * HOUR);
    const kubelet = await verifyLeaf(ca, present(dyn.spec.apiServerKubeletClient), 'sslclient');
    expect(kubelet.view.subject).toBe('O = system:masters, CN = apiserver-kubelet-client');
    const front = await verifyLeaf(present(root.aggregatorCA).crt, present(dyn.spec.frontProxy), 'sslclient');
    expect(front.view.subject).toBe('CN = front-proxy-client');
    expect(front.view.ext['X509v3 Extended Key Usage']).toBe(CLIENT);
  });
});

describe('secrets.KubernetesController', () => {
  it('renders kubeconfigs whose client certificates verify against the Kubernetes CA', async ({ signal }) => {
    const root = kubernetesRootOf(cluster.controlplane);
    const env = startRuntime([newKubernetesController()]);
    onTestFinished(env.stop);
    await env.state.create(KubernetesRoot.new('secrets', 'k8s', root));
    const k8s = await assertResource(
      env.state,
      Kubernetes,
      'k8s-certs',
      (r) => expect(r.spec.adminKubeconfig).not.toBe(''),
      {
        signal,
      },
    );
    const ca = present(root.issuingCA).crt;
    const subjects = {
      controllerManagerKubeconfig: 'O = system:kube-controller-manager, CN = system:kube-controller-manager',
      schedulerKubeconfig: 'O = system:kube-scheduler, CN = system:kube-scheduler',
      adminKubeconfig: 'O = system:masters, CN = talos:admin',
      localhostAdminKubeconfig: 'O = system:masters, CN = talos:admin',
    } as const;
    for (const [field, subject] of Object.entries(subjects) as [keyof typeof subjects, string][]) {
      const checked = await verifyLeaf(ca, present(kubeconfigClient(k8s.spec[field])), 'sslclient');
      expect(checked.view.subject).toBe(subject);
      expect(lifetime(checked)).toBe(365 * 24 * HOUR + 10_000);
    }
    expect(k8s.spec.adminKubeconfig).toContain('server: https://cp.example.com:6443');
    expect(k8s.spec.schedulerKubeconfig).toContain('server: https://127.0.0.1:7445');
  });
});

describe('secrets.MaintenanceRootController', () => {
  it('mints a self-signed Ed25519 CA once', async ({ signal }) => {
    const env = startRuntime([newMaintenanceRootController()]);
    onTestFinished(env.stop);
    const root = await assertResource(
      env.state,
      MaintenanceRoot,
      'maintenance',
      (r) => expect(r.spec.ca).not.toBeNull(),
      {
        signal,
      },
    );
    const ca = parseCertificate(present(root.spec.ca).crt);
    expect(ca.isCA).toBe(true);
    expect(ca.keyAlgorithm).toBe('ed25519');
  });
});
