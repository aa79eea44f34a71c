// ManifestController on the in-memory runtime: the manifests from the config and the root secrets, the ones
// no longer rendered destroyed, all gone without an input, and a pod security policy refused.
import { describe, expect, it, onTestFinished } from 'vitest';
import { ManifestController } from '../../../controllers/k8s/manifest.js';
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  type BootstrapManifestsConfigSpec,
  bootstrapManifestsConfigZero,
  K8S_CONTROL_PLANE_NAMESPACE,
  Manifest,
} from '../../../resources/k8s/index.js';
import {
  KUBERNETES_ROOT_ID,
  KubernetesRoot,
  type KubernetesRootSpec,
  SECRETS_NAMESPACE,
} from '../../../resources/secrets/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const ns = K8S_CONTROL_PLANE_NAMESPACE;

const root = (): KubernetesRootSpec => ({
  name: 'demo',
  endpoint: 'https://cp.example.com:6443',
  localEndpoint: 'https://localhost:6443',
  certSANs: [],
  apiServerIPs: ['10.96.0.1'],
  dnsDomain: 'cluster.local',
  issuingCA: null,
  acceptedCAs: [],
  serviceAccount: null,
  aggregatorCA: null,
  aesCBCEncryptionSecret: '',
  bootstrapTokenID: 'abcdef',
  bootstrapTokenSecret: '0123456789abcdef',
  secretboxEncryptionSecret: '',
});

const config = (over: Partial<BootstrapManifestsConfigSpec> = {}): BootstrapManifestsConfigSpec => ({
  ...bootstrapManifestsConfigZero(),
  server: 'https://127.0.0.1:7445',
  clusterDomain: 'cluster.local',
  podCIDRs: ['10.244.0.0/16'],
  dnsServiceIP: '10.96.0.10',
  coreDNSEnabled: true,
  proxyEnabled: true,
  proxyArgs: ['--proxy-mode=nftables'],
  ...over,
});

const ids = async (env: ReturnType<typeof startRuntime>) =>
  (await env.state.list({ namespace: ns, type: Manifest.type })).map((r) => r.metadata.id).sort();

describe('ManifestController', () => {
  it('renders the manifests, destroys those no longer rendered, and all without an input', async ({
    signal,
  }) => {
    const env = startRuntime([ManifestController]);
    onTestFinished(env.stop);
    await env.state.create(BootstrapManifestsConfig.new(ns, BOOTSTRAP_MANIFESTS_CONFIG_ID, config()));
    await env.state.create(KubernetesRoot.new(SECRETS_NAMESPACE, KUBERNETES_ROOT_ID, root()));
    await assertResource(
      env.state,
      Manifest,
      '00-kubelet-bootstrapping-token',
      (r) => {
        expect(r.metadata.owner).toBe('k8s.ManifestController');
        expect(r.spec.items).toMatchObject([
          {
            kind: 'Secret',
            metadata: { name: 'bootstrap-token-abcdef' },
            stringData: { 'token-id': 'abcdef' },
          },
        ]);
      },
      { namespace: ns, signal },
    );
    // the last one the controller writes: the list is complete once it is there
    await assertResource(
      env.state,
      Manifest,
      '10-kube-proxy',
      (r) => expect(r.spec.items[0]).toMatchObject({ kind: 'DaemonSet' }),
      { namespace: ns, signal },
    );
    expect(await ids(env)).toEqual([
      '00-kubelet-bootstrapping-token',
      '01-csr-approver-role-binding',
      '01-csr-node-bootstrap',
      '01-csr-renewal-role-binding',
      '10-kube-proxy',
      '11-core-dns',
      '11-core-dns-svc',
      '11-kube-config-in-cluster',
      '11-talos-node-rbac-template',
    ]);

    // kube-proxy off, flannel on: one goes, the other comes
    await env.state.modify(BootstrapManifestsConfig.new(ns, BOOTSTRAP_MANIFESTS_CONFIG_ID), (r) => {
      r.spec = config({ proxyEnabled: false, flannelEnabled: true, flannelImage: 'flannel:v1' });
    });
    await assertNoResource(env.state, Manifest, '10-kube-proxy', { namespace: ns, signal });
    await assertResource(
      env.state,
      Manifest,
      '05-flannel',
      (r) => expect(r.spec.items.map((o) => o.kind)).toContain('DaemonSet'),
      { namespace: ns, signal },
    );

    const rendered = await ids(env);
    await env.state.destroy(BootstrapManifestsConfig.pointer(BOOTSTRAP_MANIFESTS_CONFIG_ID));
    for (const id of rendered) await assertNoResource(env.state, Manifest, id, { namespace: ns, signal });
    expect(await ids(env)).toEqual([]);
  });

  it('waits for the root secrets, and recovers once a refused pod security policy is dropped', async ({
    signal,
  }) => {
    const env = startRuntime([ManifestController]);
    onTestFinished(env.stop);
    const psp = config({ podSecurityPolicyEnabled: true });
    await env.state.create(BootstrapManifestsConfig.new(ns, BOOTSTRAP_MANIFESTS_CONFIG_ID, psp));
    await env.state.create(KubernetesRoot.new(SECRETS_NAMESPACE, KUBERNETES_ROOT_ID, root()));
    // each run fails (the render unit test pins the message) until the flag goes
    await env.state.modify(BootstrapManifestsConfig.new(ns, BOOTSTRAP_MANIFESTS_CONFIG_ID), (r) => {
      r.spec = config();
    });
    await assertResource(env.state, Manifest, '11-core-dns-svc', () => {}, { namespace: ns, signal });
  });
});
