// The bootstrap manifests' config from real generated configs: upstream's defaults on a control plane, every
// setting the config makes, nothing on a worker, and the controller following the config.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  bootstrapManifestsConfigOf,
  ControlPlaneBootstrapManifestsController,
  DEFAULT_COREDNS_IMAGE,
  FLANNEL_IMAGE,
} from '../../../controllers/k8s/control-plane-bootstrap-manifests.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  K8S_CONTROL_PLANE_NAMESPACE,
} from '../../../resources/k8s/index.js';
import { parseImages } from '../../../scripts/components/image-manifest.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

describe('the bootstrap manifests config', () => {
  // minting takes seconds: one cluster for every test
  let cluster: Awaited<ReturnType<typeof mintCluster>>;
  beforeAll(async () => {
    cluster = await mintCluster();
  });

  it('names the add-ons’ images Kubernetes’ layer ships', () => {
    const manifest = readFileSync(new URL('../../../images/components.yaml', import.meta.url), 'utf8');
    const shipped = parseImages(manifest).map((i) => i.ref);
    expect(shipped).toContain(DEFAULT_COREDNS_IMAGE);
    expect(shipped).toContain(FLANNEL_IMAGE);
  });

  it('is made on a control plane only, with upstream’s defaults', async () => {
    const { controlplane, worker } = cluster;
    expect(bootstrapManifestsConfigOf(worker)).toBeUndefined();
    const spec = bootstrapManifestsConfigOf(controlplane)!;
    expect(spec).toMatchObject({
      // generated configs turn KubePrism on at its default port
      server: 'https://127.0.0.1:7445',
      clusterDomain: 'cluster.local',
      podCIDRs: ['10.244.0.0/16'],
      proxyEnabled: true,
      coreDNSEnabled: true,
      coreDNSImage: 'registry.k8s.io/coredns/coredns:v1.14.6',
      dnsServiceIP: '10.96.0.10',
      dnsServiceIPv6: '',
      flannelEnabled: true,
      flannelImage: 'ghcr.io/siderolabs/flannel:v0.28.7',
      flannelExtraArgs: [],
      flannelKubeServiceHost: '127.0.0.1',
      flannelKubeServicePort: '7445',
      flannelKubeNetworkPoliciesEnabled: false,
      flannelKubeNetworkPoliciesImage: 'registry.k8s.io/networking/kube-network-policies:v1.0.0',
      podSecurityPolicyEnabled: false,
      cniName: 'flannel',
    });
    expect(spec.proxyImage).toMatch(/^registry\.k8s\.io\/kube-proxy:v\d+\.\d+\.\d+$/);
    expect(spec.proxyArgs).toEqual([
      '--cluster-cidr=10.244.0.0/16',
      '--conntrack-max-per-core=0',
      '--hostname-override=$(NODE_NAME)',
      '--kubeconfig=/etc/kubernetes/kubeconfig',
      '--proxy-mode=nftables',
    ]);
  });

  it('carries every setting the config makes', async () => {
    const { controlplane } = cluster;
    const cfg = applyPatches(controlplane, [
      loadPatch(`machine:
  features:
    kubePrism: { enabled: false }
    kubernetesTalosAPIAccess: { enabled: true, allowedRoles: ["os:reader"], allowedKubernetesNamespaces: [kube-system] }
cluster:
  network:
    dnsDomain: example.internal
    podSubnets: [10.244.0.0/16, "fd00:10:244::/56"]
    serviceSubnets: [10.96.0.0/12, "fd00:10:96::/112"]
    cni:
      name: custom
      urls: [https://example.com/cni.yaml]
  proxy:
    disabled: true
    image: example.org/kube-proxy:v1.30.2
    extraArgs: { metrics-bind-address: "0.0.0.0:10249" }
  coreDNS: { disabled: true, image: example.org/coredns:v1 }
`),
    ]);
    expect(bootstrapManifestsConfigOf(cfg)).toMatchObject({
      server: 'https://cp.example.com:6443',
      clusterDomain: 'example.internal',
      podCIDRs: ['10.244.0.0/16', 'fd00:10:244::/56'],
      proxyEnabled: false,
      proxyImage: 'example.org/kube-proxy:v1.30.2',
      proxyArgs: [
        '--cluster-cidr=10.244.0.0/16,fd00:10:244::/56',
        '--conntrack-max-per-core=0',
        '--hostname-override=$(NODE_NAME)',
        '--kubeconfig=/etc/kubernetes/kubeconfig',
        '--metrics-bind-address=0.0.0.0:10249',
        '--proxy-mode=iptables',
      ],
      coreDNSEnabled: false,
      coreDNSImage: 'example.org/coredns:v1',
      dnsServiceIP: '10.96.0.10',
      dnsServiceIPv6: 'fd00:10:96::a',
      flannelEnabled: false,
      flannelKubeServiceHost: '',
      flannelKubeServicePort: '',
      talosAPIServiceEnabled: true,
      cniName: 'custom',
    });
    const flannel = applyPatches(controlplane, [
      loadPatch(`cluster:
  network:
    cni:
      name: flannel
      flannel: { extraArgs: [--iface=eth1], kubeNetworkPoliciesEnabled: true }
`),
    ]);
    expect(bootstrapManifestsConfigOf(flannel)).toMatchObject({
      flannelEnabled: true,
      flannelExtraArgs: ['--iface=eth1'],
      flannelKubeNetworkPoliciesEnabled: true,
    });
  });

  it('follows the config, and goes when the node is no longer a control plane', async ({ signal }) => {
    const env = startRuntime([ControlPlaneBootstrapManifestsController]);
    onTestFinished(env.stop);
    const { controlplane, worker } = cluster;
    const ns = { namespace: K8S_CONTROL_PLANE_NAMESPACE };
    await env.state.create(machineConfig(controlplane));
    const coreDNS = (enabled: boolean) =>
      assertResource(
        env.state,
        BootstrapManifestsConfig,
        BOOTSTRAP_MANIFESTS_CONFIG_ID,
        (r) => expect(r.spec.coreDNSEnabled).toBe(enabled),
        ns,
      );
    await coreDNS(true);
    const replace = (cfg: typeof controlplane) =>
      env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
        r.spec = machineConfig(cfg).spec;
      });
    await replace(applyPatches(controlplane, [loadPatch('cluster:\n  coreDNS: { disabled: true }\n')]));
    await coreDNS(false);
    await replace(worker);
    await assertNoResource(env.state, BootstrapManifestsConfig, BOOTSTRAP_MANIFESTS_CONFIG_ID, {
      ...ns,
      signal,
    });
  });
});
