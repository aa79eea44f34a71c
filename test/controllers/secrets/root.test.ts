// Root secrets and kubelet secrets from the machine config: pure derivations and their controllers.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  apiServerIPs,
  etcdRootOf,
  KubeletController,
  kubeletSecretsOf,
  kubernetesRootOf,
  osRootOf,
  RootEtcdController,
  RootKubernetesController,
  RootOSController,
  SecretsError,
} from '../../../controllers/secrets/index.js';
import { EtcdRoot, Kubelet, KubernetesRoot, OSRoot } from '../../../resources/secrets/index.js';
import type { Config } from '../../../src/config/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { type Cluster, machineConfig, mintCluster, startRuntime } from './env.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
});

/** The parts of a v1alpha1 document these tests edit. */
interface V1 {
  machine: { features: Record<string, unknown> };
  cluster: { etcd?: unknown; controlPlane: Record<string, unknown> };
}

/** withV1 edits a copy of the v1alpha1 document. */
function withV1(cfg: Config, edit: (v1: V1) => void): Config {
  const documents = cfg.documents.map((d) => {
    if (d.kind !== 'v1alpha1') return d;
    const spec = structuredClone(d.spec);
    edit(spec as unknown as V1);
    return { ...d, spec } as typeof d;
  });
  return { documents };
}

describe('osRootOf', () => {
  it('gives a control plane the issuing CA and splits certSANs into IPs and names', () => {
    const root = osRootOf(cluster.controlplane);
    expect(root.issuingCA?.crt).toContain('BEGIN CERTIFICATE');
    expect(root.issuingCA?.key).toContain('PRIVATE KEY');
    expect(root.acceptedCAs).toEqual([{ crt: root.issuingCA!.crt }]);
    expect(root.certSANIPs).toEqual(['10.9.9.9']);
    expect(root.certSANDNSNames).toEqual(['api.example.com']);
    expect(root.token).toMatch(/^[0-9a-z]{6}\.[0-9a-z]{16}$/);
  });

  it('gives a worker only the CA certificate to trust', () => {
    const root = osRootOf(cluster.worker);
    expect(root.issuingCA).toBeNull();
    expect(root.acceptedCAs).toHaveLength(1);
  });

  it('adds the in-cluster Talos API service names when Kubernetes access is on', () => {
    const cfg = withV1(cluster.controlplane, (v1) => {
      v1.machine.features.kubernetesTalosAPIAccess = { enabled: true };
    });
    expect(osRootOf(cfg).certSANDNSNames).toEqual(['api.example.com', 'talos', 'talos.default']);
  });
});

describe('etcdRootOf / kubernetesRootOf', () => {
  it('reads the etcd CA, and fails naming the config when it is missing', () => {
    expect(etcdRootOf(cluster.controlplane).etcdCA?.key).toContain('PRIVATE KEY');
    const broken = withV1(cluster.controlplane, (v1) => {
      delete v1.cluster.etcd;
    });
    expect(() => etcdRootOf(broken)).toThrow(SecretsError);
    expect(() => etcdRootOf(broken)).toThrow(
      'MachineConfigs.config.talos.dev(config/v1alpha1): missing cluster.etcd.ca',
    );
  });

  it('collects the cluster identity, endpoints, CAs and tokens', () => {
    const root = kubernetesRootOf(cluster.controlplane);
    expect(root).toMatchObject({
      name: 'demo',
      endpoint: 'https://cp.example.com:6443',
      localEndpoint: 'https://127.0.0.1:7445',
      apiServerIPs: ['10.96.0.1'],
      dnsDomain: 'cluster.local',
    });
    // the config no longer lists the endpoint's host (upstream's current contract): the cert SAN
    // controller adds it, as upstream's does
    expect(root.certSANs).toEqual(['10.9.9.9', 'api.example.com']);
    expect(root.issuingCA?.key).toContain('PRIVATE KEY');
    expect(root.aggregatorCA?.key).toContain('PRIVATE KEY');
    expect(root.serviceAccount?.key).toContain('PRIVATE KEY');
    expect(root.bootstrapTokenID).toHaveLength(6);
    expect(root.bootstrapTokenSecret).toHaveLength(16);
    expect(root.secretboxEncryptionSecret).not.toBe('');
  });

  it('falls back to localhost:<localAPIServerPort> without KubePrism', () => {
    const cfg = withV1(cluster.controlplane, (v1) => {
      v1.machine.features.kubePrism = { enabled: false };
      v1.cluster.controlPlane.localAPIServerPort = 6444;
    });
    expect(kubernetesRootOf(cfg).localEndpoint).toBe('https://localhost:6444');
  });
});

describe('apiServerIPs', () => {
  it.each([
    [['10.96.0.0/12'], ['10.96.0.1']],
    [['10.96.7.9/12'], ['10.96.0.1']],
    [['192.168.255.0/24'], ['192.168.255.1']],
    [['fd00:10:96::/112'], ['fd00:10:96::1']],
    [
      ['10.96.0.0/12', 'fd00::/108'],
      ['10.96.0.1', 'fd00::1'],
    ],
  ])('%j → %j', (subnets, ips) => {
    expect(apiServerIPs(subnets)).toEqual(ips);
  });

  it('rejects what is not a CIDR', () => {
    expect(() => apiServerIPs(['10.0.0.0/40'])).toThrow('not a CIDR');
  });
});

describe('kubeletSecretsOf', () => {
  it('points at KubePrism, trusts the cluster CA and splits the bootstrap token', () => {
    const k = kubeletSecretsOf(cluster.worker);
    expect(k.endpoint).toBe('https://127.0.0.1:7445');
    expect(k.acceptedCAs).toHaveLength(1);
    expect(`${k.bootstrapTokenID}.${k.bootstrapTokenSecret}`).toMatch(/^[0-9a-z]{6}\.[0-9a-z]{16}$/);
  });

  it('without KubePrism: the local API server on a control plane, the cluster endpoint on a worker', () => {
    const off = (v1: V1) => {
      v1.machine.features.kubePrism = { enabled: false };
    };
    expect(kubeletSecretsOf(withV1(cluster.controlplane, off)).endpoint).toBe('https://localhost:6443');
    expect(kubeletSecretsOf(withV1(cluster.worker, off)).endpoint).toBe('https://cp.example.com:6443');
  });
});

describe('root controllers', () => {
  it('publish every root on a control plane, and only OS and kubelet secrets on a worker', async ({
    signal,
  }) => {
    const env = startRuntime([
      RootOSController,
      RootEtcdController,
      RootKubernetesController,
      KubeletController,
    ]);
    onTestFinished(env.stop);
    await env.state.create(machineConfig(cluster.controlplane));
    await assertResource(env.state, OSRoot, 'os', (r) => expect(r.spec.issuingCA).not.toBeNull(), { signal });
    await assertResource(env.state, EtcdRoot, 'etcd', (r) => expect(r.spec.etcdCA).not.toBeNull(), {
      signal,
    });
    await assertResource(env.state, KubernetesRoot, 'k8s', (r) => expect(r.spec.name).toBe('demo'), {
      signal,
    });
    await assertResource(env.state, Kubelet, 'kubelet', (r) => expect(r.spec.acceptedCAs).toHaveLength(1), {
      signal,
    });
    for (const owner of [
      [OSRoot, 'os', 'secrets.RootOSController'],
      [EtcdRoot, 'etcd', 'secrets.RootEtcdController'],
      [KubernetesRoot, 'k8s', 'secrets.RootKubernetesController'],
      [Kubelet, 'kubelet', 'secrets.KubeletController'],
    ] as const)
      expect((await env.state.get(owner[0].pointer(owner[1]))).metadata.owner).toBe(owner[2]);

    // the node becomes a worker: control plane roots go, the OS root loses its issuing CA
    await env.state.modify(machineConfig(cluster.worker), (r) => {
      r.spec = cluster.worker;
    });
    await assertResource(env.state, OSRoot, 'os', (r) => expect(r.spec.issuingCA).toBeNull(), { signal });
    await assertNoResource(env.state, EtcdRoot, 'etcd', { signal });
    await assertNoResource(env.state, KubernetesRoot, 'k8s', { signal });
    await assertResource(
      env.state,
      Kubelet,
      'kubelet',
      (r) => expect(r.spec.endpoint).toBe('https://127.0.0.1:7445'),
      {
        signal,
      },
    );
  });
});
