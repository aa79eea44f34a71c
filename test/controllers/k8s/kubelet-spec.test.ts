// The kubelet's final arguments and KubeletConfiguration: the argument merge as upstream's argsbuilder,
// the configuration's fixed fields, defaults and refusals, and the controller from the resources before it.
import { describe, expect, it, onTestFinished } from 'vitest';
import { argList, mergeArgs } from '../../../controllers/k8s/internal/args.js';
import { K8sConfigError } from '../../../controllers/k8s/internal/errors.js';
import { kubeletConfiguration } from '../../../controllers/k8s/internal/kubelet-configuration.js';
import { kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import { kubeletSpecController, kubeletSpecOf } from '../../../controllers/k8s/kubelet-spec.js';
import { MACHINE_TYPE_ID, MachineType } from '../../../resources/config/machine-type.js';
import {
  K8S_NAMESPACE,
  KUBELET_ID,
  KubeletConfig,
  type KubeletConfigSpec,
  KubeletSpec,
  kubeletConfigZero,
  NODENAME_ID,
  NodeIP,
  Nodename,
} from '../../../resources/k8s/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const config = (over: Partial<KubeletConfigSpec> = {}): KubeletConfigSpec => ({
  ...kubeletConfigZero(),
  image: 'ghcr.io/siderolabs/kubelet:v1.34.4',
  clusterDNS: ['10.96.0.10'],
  clusterDomain: 'cluster.local',
  staticPodListURL: 'http://127.0.0.1:40123',
  ...over,
});

describe('mergeArgs and argList', () => {
  it('overwrites by default, joins additive lists without duplicates, refuses a denied flag', () => {
    const base = new Map([
      ['b', ['1']],
      ['a', ['x,y']],
    ]);
    expect(argList(mergeArgs(base, new Map([['b', ['2', '3']]])))).toEqual(['--a=x,y', '--b=2', '--b=3']);
    expect(argList(mergeArgs(base, new Map([['a', ['y', 'z']]]), { a: 'additive' }))).toEqual([
      '--a=x,y,z',
      '--b=1',
    ]);
    expect(() => mergeArgs(base, new Map([['b', ['2']]]), { b: 'denied' })).toThrow(
      'extra arg "b" is not allowed',
    );
  });
});

describe('kubeletConfiguration', () => {
  it("sets upstream's fixed fields and defaults, and taints a control plane at registration", () => {
    const c = kubeletConfiguration(config(), { controlPlane: true, container: false });
    expect(c).toMatchObject({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      staticPodPath: '/etc/kubernetes/manifests',
      staticPodURL: 'http://127.0.0.1:40123',
      port: 10250,
      authentication: {
        x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' },
        webhook: { enabled: true },
        anonymous: { enabled: false },
      },
      authorization: { mode: 'Webhook' },
      cgroupRoot: '/',
      systemCgroups: '/system',
      kubeletCgroups: '/podruntime/kubelet',
      rotateCertificates: true,
      protectKernelDefaults: true,
      containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
      address: '0.0.0.0',
      oomScoreAdj: -450,
      clusterDomain: 'cluster.local',
      clusterDNS: ['10.96.0.10'],
      serializeImagePulls: false,
      failSwapOn: false,
      systemReserved: { cpu: '50m', pid: '100', 'ephemeral-storage': '256Mi', memory: '512Mi' },
      logging: { format: 'json' },
      shutdownGracePeriod: '30s',
      shutdownGracePeriodCriticalPods: '10s',
      streamingConnectionIdleTimeout: '5m0s',
      tlsMinVersion: 'VersionTLS13',
      resolvConf: '/system/resolved/resolv.conf',
      registerWithTaints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    });
    const worker = kubeletConfiguration(config(), { controlPlane: false, container: true });
    expect(worker.registerWithTaints).toBeUndefined();
    expect(worker.protectKernelDefaults).toBe(false);
    expect((worker.systemReserved as Record<string, string>).memory).toBe('384Mi');
  });

  it("keeps the user's extraConfig where upstream does, and refuses a protected field, naming each", () => {
    const c = kubeletConfiguration(
      config({
        extraConfig: { maxPods: 50, clusterDomain: 'x.local', logging: { format: 'text' } },
        disableManifestsDirectory: true,
        skipNodeRegistration: true,
        enableFSQuotaMonitoring: true,
      }),
      { controlPlane: true, container: false },
    );
    expect(c).toMatchObject({
      maxPods: 50,
      clusterDomain: 'x.local',
      logging: { format: 'text' },
      authorization: { mode: 'AlwaysAllow' },
      featureGates: { LocalStorageCapacityIsolationFSQuotaMonitoring: true },
    });
    expect(c.staticPodPath).toBeUndefined();
    expect(c.registerWithTaints).toBeUndefined();
    expect(() =>
      kubeletConfiguration(config({ extraConfig: { port: 1, resolvConf: '/x' } }), {
        controlPlane: false,
        container: false,
      }),
    ).toThrow(
      'machine.kubelet.extraConfig: field "port" can\'t be overridden; machine.kubelet.extraConfig: field "resolvConf" can\'t be overridden',
    );
  });
});

describe('kubeletSpecOf', () => {
  const base = { controlPlane: false, nodename: 'worker-1', nodeIPs: ['10.5.0.3'], container: false };

  it("gives upstream's arguments, sorted, with the node IP and the user's extra arguments", () => {
    const s = kubeletSpecOf({ ...base, config: config({ extraArgs: { 'max-pods': { values: ['50'] } } }) })!;
    expect(s.args).toEqual([
      '--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubeconfig',
      '--cert-dir=/var/lib/kubelet/pki',
      '--config=/etc/kubernetes/kubelet.yaml',
      '--hostname-override=worker-1',
      '--kubeconfig=/etc/kubernetes/kubeconfig-kubelet',
      '--max-pods=50',
      '--node-ip=10.5.0.3',
    ]);
    expect(s.expectedNodename).toBe('worker-1');
    expect(s.image).toBe('ghcr.io/siderolabs/kubelet:v1.34.4');
  });

  it('waits for the node IPs unless the user gives one, and lets go of a name the user overrides', () => {
    const { nodeIPs: _, ...noIPs } = base;
    expect(kubeletSpecOf({ ...noIPs, config: config() })).toBeUndefined();
    const s = kubeletSpecOf({
      ...noIPs,
      config: config({
        extraArgs: { 'node-ip': { values: ['192.0.2.1'] }, 'hostname-override': { values: ['mine'] } },
        skipNodeRegistration: true,
        cloudProviderExternal: true,
      }),
    })!;
    expect(s.args).toEqual([
      '--cert-dir=/var/lib/kubelet/pki',
      '--cloud-provider=external',
      '--config=/etc/kubernetes/kubelet.yaml',
      '--hostname-override=mine',
      '--node-ip=192.0.2.1',
    ]);
    expect(s.expectedNodename).toBe('');
  });

  it('names every path under a container node’s state directory, and its root and pod logs there', () => {
    const paths = kubeletPathsUnder('/st', '/st/run/containerd/containerd.sock');
    const s = kubeletSpecOf({ ...base, container: true, config: config(), paths })!;
    expect(s.args).toEqual([
      '--bootstrap-kubeconfig=/st/etc/kubernetes/bootstrap-kubeconfig',
      '--cert-dir=/st/var/lib/kubelet/pki',
      '--config=/st/etc/kubernetes/kubelet.yaml',
      '--hostname-override=worker-1',
      '--kubeconfig=/st/etc/kubernetes/kubeconfig-kubelet',
      '--node-ip=10.5.0.3',
      '--root-dir=/st/var/lib/kubelet',
    ]);
    expect(s.config).toMatchObject({
      staticPodPath: '/st/etc/kubernetes/manifests',
      authentication: { x509: { clientCAFile: '/st/etc/kubernetes/pki/ca.crt' } },
      containerRuntimeEndpoint: 'unix:///st/run/containerd/containerd.sock',
      podLogsDir: '/st/var/log/pods',
      resolvConf: '/st/system/resolved/resolv.conf',
    });
    // a node's paths are the kubelet's defaults: not named
    expect(kubeletSpecOf({ ...base, config: config() })!.config).not.toHaveProperty('podLogsDir');
  });

  it('refuses an extra argument Keel owns, naming it', () => {
    expect(() =>
      kubeletSpecOf({ ...base, config: config({ extraArgs: { 'cert-dir': { values: ['/tmp'] } } }) }),
    ).toThrow(K8sConfigError);
  });
});

describe('k8s.KubeletSpecController', () => {
  it('builds the spec once its inputs are there and follows the node IP', async ({ signal }) => {
    const env = startRuntime([kubeletSpecController()]);
    onTestFinished(env.stop);
    await env.state.create(KubeletConfig.new(K8S_NAMESPACE, KUBELET_ID, config()));
    await env.state.create(MachineType.new('config', MACHINE_TYPE_ID, { type: 'controlplane' }));
    await env.state.create(
      Nodename.new(K8S_NAMESPACE, NODENAME_ID, {
        nodename: 'cp-1',
        hostnameVersion: '1',
        skipNodeRegistration: false,
      }),
    );
    const ip = (...addresses: string[]) =>
      env.state.modify(NodeIP.new(K8S_NAMESPACE, KUBELET_ID), (r) => {
        r.spec = { addresses };
      });
    await ip('10.5.0.2');
    const spec = (nodeIP: string) =>
      assertResource(
        env.state,
        KubeletSpec,
        KUBELET_ID,
        (r) => {
          expect(r.spec.args).toContain(`--node-ip=${nodeIP}`);
          expect(r.spec.config.registerWithTaints).toEqual([
            { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
          ]);
        },
        { signal },
      );
    await spec('10.5.0.2');
    await ip('10.5.0.2', 'fd00::2');
    await spec('10.5.0.2,fd00::2');
  });
});
