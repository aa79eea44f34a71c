import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  type CertificateAndKey,
  type ControlPlaneCertificates,
  checkKeyPair,
  DEFAULT_CERTIFICATE_VALIDITY_MS,
  ETCD_CERTIFICATE_VALIDITY_MS,
  KUBERNETES_CERTIFICATE_VALIDITY_MS,
  mintControlPlaneCertificates,
  mintSecretsBundle,
  mintTalosAPIClientCertificate,
  type SecretsBundle,
  standardKeyLabel,
} from '../../src/pki/index.js';
import { inspect, verifyChain } from './openssl.js';

const now = new Date();
let bundle: SecretsBundle;
let set: ControlPlaneCertificates;

beforeAll(async () => {
  bundle = await mintSecretsBundle({ now, serviceAccountKeyType: 'ecdsa-p256' });
  set = await mintControlPlaneCertificates({
    certs: bundle.certs,
    fqdn: 'cp-1.lan',
    apiSANs: { dnsNames: ['cp-1', 'cp-1.lan'], ipAddresses: ['10.5.0.2', '127.0.0.1'] },
    kubernetesSANs: {
      dnsNames: [
        'kubernetes',
        'kubernetes.default',
        'kubernetes.default.svc',
        'kubernetes.default.svc.cluster.local',
        'localhost',
      ],
      ipAddresses: ['10.96.0.1', '10.5.0.2', '127.0.0.1'],
    },
    etcdNode: { hostname: 'cp-1', dnsNames: ['cp-1', 'cp-1.lan'], ipAddresses: ['10.5.0.2'] },
    now,
  });
});

const SERVER = 'TLS Web Server Authentication';
const CLIENT = 'TLS Web Client Authentication';
const BOTH = `${SERVER}, ${CLIENT}`;

// every leaf a control-plane node holds: which CA signs it and what openssl must see in it
const expected: [
  string,
  (s: ControlPlaneCertificates) => CertificateAndKey,
  'os' | 'etcd' | 'k8s' | 'k8sAggregator',
  {
    key: string;
    subject: string;
    eku: string;
    san?: string;
    lifetime: number;
    backdated?: boolean;
  },
][] = [
  [
    'apid server',
    (s) => s.api.server,
    'os',
    {
      key: 'ED25519',
      subject: 'CN = cp-1.lan',
      eku: SERVER,
      san: 'DNS:cp-1, DNS:cp-1.lan, IP Address:10.5.0.2, IP Address:127.0.0.1',
      lifetime: DEFAULT_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'apid client',
    (s) => s.api.client,
    'os',
    {
      key: 'ED25519',
      subject: 'O = os:impersonator, CN = cp-1.lan',
      eku: CLIENT,
      lifetime: DEFAULT_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'trustd server',
    (s) => s.trustd.server,
    'os',
    {
      key: 'ED25519',
      subject: 'CN = cp-1.lan',
      eku: SERVER,
      san: 'DNS:cp-1, DNS:cp-1.lan, IP Address:10.5.0.2, IP Address:127.0.0.1',
      lifetime: DEFAULT_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'etcd server',
    (s) => s.etcd.server,
    'etcd',
    {
      key: 'id-ecPublicKey',
      subject: 'CN = cp-1',
      eku: BOTH,
      san: 'DNS:cp-1, DNS:cp-1.lan, DNS:localhost, IP Address:10.5.0.2, IP Address:127.0.0.1',
      lifetime: ETCD_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'etcd peer',
    (s) => s.etcd.peer,
    'etcd',
    {
      key: 'id-ecPublicKey',
      subject: 'CN = cp-1',
      eku: BOTH,
      san: 'DNS:cp-1, DNS:cp-1.lan, IP Address:10.5.0.2',
      lifetime: ETCD_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'etcd admin client',
    (s) => s.etcd.admin,
    'etcd',
    {
      key: 'id-ecPublicKey',
      subject: 'CN = talos',
      eku: CLIENT,
      lifetime: ETCD_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'etcd kube-apiserver client',
    (s) => s.etcd.apiServer,
    'etcd',
    {
      key: 'id-ecPublicKey',
      subject: 'CN = kube-apiserver',
      eku: CLIENT,
      lifetime: ETCD_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'kube-apiserver serving',
    (s) => s.kubernetesDynamic.apiServer,
    'k8s',
    {
      key: 'id-ecPublicKey',
      subject: 'O = kube-master, CN = kube-apiserver',
      eku: SERVER,
      san: 'DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, DNS:kubernetes.default.svc.cluster.local, DNS:localhost, IP Address:10.96.0.1, IP Address:10.5.0.2, IP Address:127.0.0.1',
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'apiserver-kubelet-client',
    (s) => s.kubernetesDynamic.apiServerKubeletClient,
    'k8s',
    {
      key: 'id-ecPublicKey',
      subject: 'O = system:masters, CN = apiserver-kubelet-client',
      eku: CLIENT,
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'front-proxy-client',
    (s) => s.kubernetesDynamic.frontProxy,
    'k8sAggregator',
    {
      key: 'id-ecPublicKey',
      subject: 'CN = front-proxy-client',
      eku: CLIENT,
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
    },
  ],
  [
    'controller-manager kubeconfig',
    (s) => s.kubeconfigs.controllerManager,
    'k8s',
    {
      key: 'id-ecPublicKey',
      subject: 'O = system:kube-controller-manager, CN = system:kube-controller-manager',
      eku: CLIENT,
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
      backdated: true,
    },
  ],
  [
    'scheduler kubeconfig',
    (s) => s.kubeconfigs.scheduler,
    'k8s',
    {
      key: 'id-ecPublicKey',
      subject: 'O = system:kube-scheduler, CN = system:kube-scheduler',
      eku: CLIENT,
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
      backdated: true,
    },
  ],
  [
    'admin kubeconfig',
    (s) => s.kubeconfigs.admin,
    'k8s',
    {
      key: 'id-ecPublicKey',
      subject: 'O = system:masters, CN = talos:admin',
      eku: CLIENT,
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
      backdated: true,
    },
  ],
  [
    'localhost admin kubeconfig',
    (s) => s.kubeconfigs.localhostAdmin,
    'k8s',
    {
      key: 'id-ecPublicKey',
      subject: 'O = system:masters, CN = talos:admin',
      eku: CLIENT,
      lifetime: KUBERNETES_CERTIFICATE_VALIDITY_MS,
      backdated: true,
    },
  ],
];

describe('mintControlPlaneCertificates', () => {
  it.each(expected)('%s verifies with openssl and says what §4.2 says', async (_, pick, caName, want) => {
    const leaf = pick(set);
    const ca = bundle.certs[caName];
    const purpose = want.eku === CLIENT ? 'sslclient' : 'sslserver';
    const r = await verifyChain(ca.crt, leaf.crt, ['-purpose', purpose]);
    expect(r.stdout + r.stderr).toContain(': OK');
    checkKeyPair(leaf);
    const v = await inspect(leaf.crt);
    expect(v.publicKeyAlgorithm).toBe(want.key);
    expect(v.subject).toBe(want.subject);
    expect(v.ext['X509v3 Extended Key Usage']).toBe(want.eku);
    expect(v.ext['X509v3 Subject Alternative Name']).toBe(want.san);
    expect(v.ext['X509v3 Basic Constraints']).toBeUndefined();
    const start = Math.floor(now.getTime() / 1000) * 1000 - (want.backdated ? 10_000 : 0);
    expect(v.notBefore.getTime()).toBe(start);
    expect(v.notAfter.getTime()).toBe(Math.floor((now.getTime() + want.lifetime) / 1000) * 1000);
  });

  it('serves mutual TLS between the apid server certificate and a talosconfig client certificate', async () => {
    const admin = await mintTalosAPIClientCertificate(bundle.certs.os);
    const server = createServer(
      {
        cert: set.api.server.crt,
        key: standardKeyLabel(set.api.server.key), // OpenSSL 3 needs the standard label
        ca: bundle.certs.os.crt,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (socket) => socket.end(String(socket.getPeerCertificate().subject.O)),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => void server.close());
    const { port } = server.address() as AddressInfo;
    const client: TLSSocket = connect({
      host: '127.0.0.1',
      port,
      ca: bundle.certs.os.crt,
      cert: admin.crt,
      key: standardKeyLabel(admin.key),
    });
    let body = '';
    client.setEncoding('utf8').on('data', (d: string) => {
      body += d;
    });
    await once(client, 'end');
    expect(client.authorized).toBe(true);
    expect(body).toBe('os:admin');
  });
});
