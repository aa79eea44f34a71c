// The kubelet's config resource from a real generated config and the static pod server's URL.
import { describe, expect, it, onTestFinished } from 'vitest';
import { K8sConfigError } from '../../../controllers/k8s/internal/errors.js';
import {
  DEFAULT_KUBELET_IMAGE,
  dnsServiceIPs,
  KubeletConfigController,
  kubeletConfigOf,
} from '../../../controllers/k8s/kubelet-config.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  K8S_NAMESPACE,
  KUBELET_ID,
  KubeletConfig,
  STATIC_POD_SERVER_STATUS_ID,
  StaticPodServerStatus,
} from '../../../resources/k8s/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

const URL_ = 'http://127.0.0.1:40123';

describe('dnsServiceIPs', () => {
  it('is the tenth address of each service range, and names a range too small', () => {
    expect(dnsServiceIPs(['10.96.0.0/12', 'fd00:10:96::/112'])).toEqual(['10.96.0.10', 'fd00:10:96::a']);
    expect(() => dnsServiceIPs(['10.96.0.0/29'])).toThrow(K8sConfigError);
    expect(() => dnsServiceIPs(['nonsense'])).toThrow(/serviceSubnets: "nonsense"/);
  });
});

describe('kubeletConfigOf', () => {
  it('takes the defaults of a generated config, and every setting the config makes', async () => {
    const { controlplane } = await mintCluster();
    const base = kubeletConfigOf(controlplane, URL_)!;
    expect(base).toMatchObject({
      clusterDNS: ['10.96.0.10'],
      clusterDomain: 'cluster.local',
      staticPodListURL: URL_,
      skipNodeRegistration: false,
      allowSchedulingOnControlPlane: false,
    });
    expect(base.image).toMatch(/^ghcr\.io\/siderolabs\/kubelet:v\d+\.\d+\.\d+$/);
    expect(base.extraArgs).toBeUndefined();

    const patched = applyPatches(controlplane, [
      loadPatch(`machine:
  kubelet:
    image: example.org/kubelet:v9
    clusterDNS: [169.254.2.53]
    extraArgs: { max-pods: "50" }
    extraMounts:
      - { destination: /var/lib/example, type: bind, source: /var/lib/example, options: [bind, rshared, rw] }
    extraConfig: { serverTLSBootstrap: true }
    skipNodeRegistration: true
  features:
    diskQuotaSupport: true
cluster:
  network:
    dnsDomain: example.internal
  allowSchedulingOnControlPlanes: true
`),
    ]);
    expect(kubeletConfigOf(patched, URL_)).toEqual({
      image: 'example.org/kubelet:v9',
      clusterDNS: ['169.254.2.53'],
      clusterDomain: 'example.internal',
      extraArgs: { 'max-pods': { values: ['50'] } },
      extraMounts: [
        {
          destination: '/var/lib/example',
          type: 'bind',
          source: '/var/lib/example',
          options: ['bind', 'rshared', 'rw'],
        },
      ],
      extraConfig: { serverTLSBootstrap: true },
      cloudProviderExternal: false,
      defaultRuntimeSeccompEnabled: base.defaultRuntimeSeccompEnabled,
      skipNodeRegistration: true,
      staticPodListURL: URL_,
      disableManifestsDirectory: base.disableManifestsDirectory,
      enableFSQuotaMonitoring: true,
      allowSchedulingOnControlPlane: true,
    });
    expect(DEFAULT_KUBELET_IMAGE).toMatch(/^ghcr\.io\/siderolabs\/kubelet:v/);
  });
});

describe('k8s.KubeletConfigController', () => {
  it('waits for the static pod server, then follows the config; none without one', async ({ signal }) => {
    const env = startRuntime([KubeletConfigController]);
    onTestFinished(env.stop);
    const { worker } = await mintCluster();
    await env.state.create(machineConfig(worker));
    await assertNoResource(env.state, KubeletConfig, KUBELET_ID, { signal });
    await env.state.create(
      StaticPodServerStatus.new(K8S_NAMESPACE, STATIC_POD_SERVER_STATUS_ID, { url: URL_ }),
    );
    await assertResource(env.state, KubeletConfig, KUBELET_ID, (r) =>
      expect(r.spec.staticPodListURL).toBe(URL_),
    );
    const patched = applyPatches(worker, [loadPatch('machine:\n  kubelet:\n    extraArgs: { v: "2" }\n')]);
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(patched).spec;
    });
    await assertResource(env.state, KubeletConfig, KUBELET_ID, (r) =>
      expect(r.spec.extraArgs).toEqual({ v: { values: ['2'] } }),
    );
    await env.state.destroy(MachineConfig.pointer('v1alpha1'));
    await assertNoResource(env.state, KubeletConfig, KUBELET_ID, { signal });
  });
});
