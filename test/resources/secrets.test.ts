// The secrets resources: upstream's type strings and ids, sensitivity, YAML keys in upstream order,
// and specs that survive the wire (protobuf) and YAML unchanged.
import { describe, expect, it } from 'vitest';
import {
  API,
  CertSAN,
  certSANSpec,
  Etcd,
  EtcdRoot,
  Kubelet,
  Kubernetes,
  KubernetesDynamicCerts,
  KubernetesRoot,
  MaintenanceRoot,
  OSRoot,
  registerSecretsResources,
  SECRETS_TYPES,
  sortIPs,
  Trustd,
} from '../../resources/secrets/index.js';
import { decodeResource, encodeResource } from '../../src/cosi/resource/protobuf/index.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../src/cosi/resource/yaml.js';
import { newInmemState } from '../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../src/cosi/state/wrap.js';

const pair = { crt: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', key: 'KEY\n' };
const cert = { crt: pair.crt };

/** One sample per type, every field set, with the upstream YAML keys in order. */
// biome-ignore lint/suspicious/noExplicitAny: one table over many spec types
const samples: [ResourceType<any>, string, string, object, string[]][] = [
  [
    OSRoot,
    'OSRootSecrets.secrets.talos.dev',
    'os',
    { issuingCA: pair, acceptedCAs: [cert], certSANIPs: ['10.0.0.1'], certSANDNSNames: ['a'], token: 't' },
    ['issuingCA', 'acceptedCAs', 'certSANIPs', 'certSANDNSNames', 'token'],
  ],
  [EtcdRoot, 'EtcdRootSecrets.secrets.talos.dev', 'etcd', { etcdCA: pair }, ['etcdCA']],
  [
    KubernetesRoot,
    'KubernetesRootSecrets.secrets.talos.dev',
    'k8s',
    {
      name: 'demo',
      endpoint: 'https://cp:6443',
      localEndpoint: 'https://127.0.0.1:7445',
      certSANs: ['x'],
      apiServerIPs: ['10.96.0.1', 'fd00::1'],
      dnsDomain: 'cluster.local',
      issuingCA: pair,
      acceptedCAs: [cert],
      serviceAccount: { key: 'SA\n' },
      aggregatorCA: pair,
      aesCBCEncryptionSecret: 'a',
      bootstrapTokenID: 'b',
      bootstrapTokenSecret: 'c',
      secretboxEncryptionSecret: 'd',
    },
    [
      'name',
      'endpoint',
      'local_endpoint',
      'certSANs',
      'apiServerIPs',
      'dnsDomain',
      'issuingCA',
      'acceptedCAs',
      'serviceAccount',
      'aggregatorCA',
      'aesCBCEncryptionSecret',
      'bootstrapTokenID',
      'bootstrapTokenSecret',
      'secretboxEncryptionSecret',
    ],
  ],
  [MaintenanceRoot, 'MaintenanceRootSecrets.secrets.talos.dev', 'maintenance', { ca: pair }, ['ca']],
  [
    CertSAN,
    'CertSANs.secrets.talos.dev',
    'api',
    { ips: ['10.0.0.1'], dnsNames: ['a'], fqdn: 'a.b' },
    ['ips', 'dnsNames', 'fqdn'],
  ],
  [
    API,
    'ApiCertificates.secrets.talos.dev',
    'api',
    { acceptedCAs: [cert], client: pair, server: pair, skipVerifyingClientCert: true },
    ['acceptedCAs', 'client', 'server', 'skipVerifyingClientCert'],
  ],
  [
    Trustd,
    'TrustdCertificates.secrets.talos.dev',
    'trustd',
    { acceptedCAs: [cert], server: pair },
    ['acceptedCAs', 'server'],
  ],
  [
    Etcd,
    'EtcdSecrets.secrets.talos.dev',
    'etcd',
    { etcd: pair, etcdPeer: pair, etcdAdmin: pair, etcdAPIServer: pair },
    ['etcd', 'etcdPeer', 'etcdAdmin', 'etcdAPIServer'],
  ],
  [
    Kubernetes,
    'KubernetesSecrets.secrets.talos.dev',
    'k8s-certs',
    {
      schedulerKubeconfig: 's',
      controllerManagerKubeconfig: 'c',
      localhostAdminKubeconfig: 'l',
      adminKubeconfig: 'a',
    },
    ['schedulerKubeconfig', 'controllerManagerKubeconfig', 'localhostAdminKubeconfig', 'adminKubeconfig'],
  ],
  [
    KubernetesDynamicCerts,
    'KubernetesDynamicCerts.secrets.talos.dev',
    'k8s-dynamic-certs',
    { apiServer: pair, apiServerKubeletClient: pair, frontProxy: pair },
    ['apiServer', 'apiServerKubeletClient', 'frontProxy'],
  ],
  [
    Kubelet,
    'KubeletSecrets.secrets.talos.dev',
    'kubelet',
    {
      endpoint: 'https://127.0.0.1:7445',
      acceptedCAs: [cert],
      bootstrapTokenID: 'a',
      bootstrapTokenSecret: 'b',
    },
    ['endpoint', 'acceptedCAs', 'bootstrapTokenID', 'bootstrapTokenSecret'],
  ],
];

describe('secrets resource definitions', () => {
  it('cover every type of the folder', () => {
    expect(samples.map((s) => s[0])).toEqual(expect.arrayContaining([...SECRETS_TYPES]));
    expect(samples).toHaveLength(SECRETS_TYPES.length);
  });

  it.each(samples)('%#: is sensitive, in namespace secrets, under upstream’s type name', (rtype, type) => {
    expect(rtype.definition).toMatchObject({ type, defaultNamespace: 'secrets', sensitivity: 'sensitive' });
  });

  it.each(samples)(
    '%#: spec survives protobuf and YAML with upstream keys in order',
    (rtype, _type, id, spec, keys) => {
      const r = rtype.new('secrets', id, spec);
      const wire = decodeResource(encodeResource(r));
      expect(rtype.is(wire) && wire.spec).toEqual(spec);
      const yaml = specYAML(r);
      const top = yaml
        .split('\n')
        .filter((l) => /^[A-Za-z_]+:/.test(l))
        .map((l) => l.slice(0, l.indexOf(':')));
      expect(top).toEqual(keys);
      const back = unmarshalResourceYAML(marshalResourceYAML(r));
      expect(rtype.is(back) && back.spec).toEqual(spec);
    },
  );

  it('writes PEM as base64 in YAML, as upstream’s x509 types do', () => {
    const yaml = specYAML(EtcdRoot.new('secrets', 'etcd', { etcdCA: pair }));
    expect(yaml).toContain(`crt: ${Buffer.from(pair.crt).toString('base64')}`);
    expect(yaml).not.toContain('BEGIN CERTIFICATE');
  });

  it('zero specs have nulls and empty lists', () => {
    expect(API.codec.empty()).toEqual({
      acceptedCAs: [],
      client: null,
      server: null,
      skipVerifyingClientCert: false,
    });
  });

  it('registers every definition in a state', async () => {
    const state = wrapCore(newInmemState());
    await registerSecretsResources(state);
    const defs = await state.list({ namespace: 'meta', type: 'ResourceDefinitions.meta.cosi.dev' });
    expect(defs).toHaveLength(SECRETS_TYPES.length);
    expect(defs.every((d) => (d.spec as { sensitivity?: string }).sensitivity === 'sensitive')).toBe(true);
  });
});

describe('certSANSpec', () => {
  it.each([
    [{ sans: ['10.0.0.1', 'a', '', 'fd00::1'] }, { ips: ['10.0.0.1', 'fd00::1'], dnsNames: ['a'], fqdn: '' }],
    [{ ips: ['FD00::1', 'fd00:0::1', '10.0.0.1'] }, { ips: ['10.0.0.1', 'fd00::1'], dnsNames: [], fqdn: '' }],
    [
      { dnsNames: ['b', 'a', 'b', ''], fqdn: 'a' },
      { ips: [], dnsNames: ['a', 'b'], fqdn: 'a' },
    ],
  ])('%j', (parts, want) => {
    expect(certSANSpec(parts)).toEqual(want);
  });

  it('sorts IPv4 before IPv6, each by value', () => {
    expect(sortIPs(['fd00::10', '10.0.0.10', 'fd00::2', '10.0.0.9', '::1'])).toEqual([
      '10.0.0.9',
      '10.0.0.10',
      '::1',
      'fd00::2',
      'fd00::10',
    ]);
  });
});
