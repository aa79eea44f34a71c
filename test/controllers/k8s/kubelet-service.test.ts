// The kubelet's ServiceSpec: pinned whole from its inputs, rendered files as upstream's; the controller on
// the in-memory runtime (no spec without the layer, the KubeletSpec and the secrets; the first start held
// for time and network on a node); and, on the real supervisor with a stand-in kubelet, a changed secret
// restarting the kubelet alone.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import YAML from 'yaml';
import { bootstrapKubeconfig } from '../../../controllers/k8s/internal/kubelet-files.js';
import { kubeletPathsUnder, NODE_KUBELET_PATHS } from '../../../controllers/k8s/kubelet-paths.js';
import { kubeletServiceController, kubeletServiceSpec } from '../../../controllers/k8s/kubelet-service.js';
import { serviceSpecController } from '../../../controllers/v1alpha1/service-spec.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  K8S_NAMESPACE,
  KUBELET_ID,
  KubeletSpec,
  type KubeletSpecSpec,
} from '../../../resources/k8s/index.js';
import { NETWORK_NAMESPACE, NETWORK_STATUS_ID, NetworkStatus } from '../../../resources/network/index.js';
import { ComponentsLayer, KUBERNETES_LAYER_ID, RUNTIME_NAMESPACE } from '../../../resources/runtime/index.js';
import {
  KUBELET_ID as KUBELET_SECRETS_ID,
  Kubelet,
  type KubeletSpec as KubeletSecretsSpec,
  SECRETS_NAMESPACE,
} from '../../../resources/secrets/index.js';
import { TIME_NAMESPACE, TIME_STATUS_ID, TimeStatus } from '../../../resources/time/index.js';
import { ServiceSpec } from '../../../resources/v1alpha1/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { EventBus } from '../../../src/machined/events/bus.js';
import { LoggingManager } from '../../../src/machined/logging/manager.js';
import { processKind, SpecHost, Supervisor } from '../../../src/machined/services/index.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

const kubeletSpec = (over: Partial<KubeletSpecSpec> = {}): KubeletSpecSpec => ({
  image: 'ghcr.io/siderolabs/kubelet:v1.34.4',
  args: ['--config=/etc/kubernetes/kubelet.yaml', '--node-ip=10.5.0.2'],
  expectedNodename: 'cp-1',
  config: { kind: 'KubeletConfiguration', apiVersion: 'kubelet.config.k8s.io/v1beta1', port: 10250 },
  ...over,
});

const secrets = (over: Partial<KubeletSecretsSpec> = {}): KubeletSecretsSpec => ({
  endpoint: 'https://localhost:6443',
  acceptedCAs: [{ crt: 'CA-ONE\n' }, { crt: 'CA-TWO\n' }],
  bootstrapTokenID: 'abcdef',
  bootstrapTokenSecret: '0123456789abcdef',
  ...over,
});

const layer = (root: string) =>
  ComponentsLayer.new(RUNTIME_NAMESPACE, KUBERNETES_LAYER_ID, { root, source: root, packages: '' });

describe('bootstrapKubeconfig', () => {
  it('lays the bootstrap token kubeconfig out as clientcmd.Write does', () => {
    expect(
      bootstrapKubeconfig({
        server: 'https://localhost:6443',
        caBundle: 'CA\n',
        tokenID: 'a',
        tokenSecret: 'b',
      }),
    ).toBe(
      [
        'apiVersion: v1',
        'clusters:',
        '- cluster:',
        `    certificate-authority-data: ${Buffer.from('CA\n').toString('base64')}`,
        '    server: https://localhost:6443',
        '  name: local',
        'contexts:',
        '- context:',
        '    cluster: local',
        '    user: kubelet@local',
        '  name: kubelet@local',
        'current-context: kubelet@local',
        'kind: Config',
        'preferences: {}',
        'users:',
        '- name: kubelet@local',
        '  user:',
        '    token: a.b',
        '',
      ].join('\n'),
    );
  });
});

describe('kubeletServiceSpec', () => {
  it('runs the layer’s kubelet with KubeletSpec’s arguments and upstream’s files, health and cgroup', () => {
    const s = kubeletServiceSpec({
      spec: kubeletSpec({ credentialProviderConfig: { kind: 'CredentialProviderConfig', providers: [] } }),
      secrets: secrets(),
      layerRoot: '/run/keel/kubernetes',
      env: { https_proxy: 'http://proxy:3128' },
      paths: NODE_KUBELET_PATHS,
    });
    expect(s).toEqual({
      kind: 'process',
      args: [
        '/run/keel/kubernetes/usr/bin/kubelet',
        '--config=/etc/kubernetes/kubelet.yaml',
        '--node-ip=10.5.0.2',
      ],
      env: {
        PATH: '/run/keel/kubernetes/usr/bin:/usr/bin:/usr/sbin:/bin:/sbin',
        https_proxy: 'http://proxy:3128',
      },
      uid: 0,
      gid: 0,
      dependsOn: ['containerd'],
      dirs: [
        { path: '/etc/kubernetes/pki', mode: 0o700 },
        { path: '/etc/kubernetes/manifests', mode: 0o755 },
        { path: '/var/lib/kubelet', mode: 0o700 },
        { path: '/var/lib/kubelet/seccomp', mode: 0o700 },
        { path: '/var/lib/kubelet/seccomp/profiles', mode: 0o700 },
        { path: '/var/log/pods', mode: 0o755 },
        { path: '/var/log/containers', mode: 0o755 },
      ],
      files: [
        {
          path: '/etc/kubernetes/bootstrap-kubeconfig',
          mode: 0o600,
          content: bootstrapKubeconfig({
            server: 'https://localhost:6443',
            caBundle: 'CA-ONE\nCA-TWO\n',
            tokenID: 'abcdef',
            tokenSecret: '0123456789abcdef',
          }),
        },
        { path: '/etc/kubernetes/pki/ca.crt', mode: 0o400, content: 'CA-ONE\nCA-TWO\n' },
        {
          path: '/etc/kubernetes/kubelet.yaml',
          mode: 0o600,
          content: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nport: 10250\n',
        },
        {
          path: '/etc/kubernetes/kubelet-credentialproviderconfig.yaml',
          mode: 0o600,
          content: 'kind: CredentialProviderConfig\nproviders: []\n',
        },
      ],
      health: { kind: 'http', url: 'http://127.0.0.1:10248/healthz', initialDelayMs: 2000 },
      apiControl: true,
      cgroup: 'podruntime/kubelet',
      options: {},
    });
  });

  it('writes under a container node’s state directory', () => {
    const s = kubeletServiceSpec({
      spec: kubeletSpec(),
      secrets: secrets(),
      layerRoot: '/k',
      env: {},
      paths: kubeletPathsUnder('/st', '/st/run/containerd/containerd.sock'),
    });
    expect(s.files.map((f) => f.path)).toEqual([
      '/st/etc/kubernetes/bootstrap-kubeconfig',
      '/st/etc/kubernetes/pki/ca.crt',
      '/st/etc/kubernetes/kubelet.yaml',
    ]);
    expect(s.dirs?.map((d) => d.path)).toContain('/st/var/lib/kubelet');
  });
});

describe('k8s.KubeletServiceController', () => {
  it('makes the spec once the layer, the KubeletSpec and the secrets are there, with machine.env', async ({
    signal,
  }) => {
    const env = startRuntime([kubeletServiceController()]);
    onTestFinished(env.stop);
    const { controlplane } = await mintCluster();
    await env.state.create(
      machineConfig(
        applyPatches(controlplane, [loadPatch('machine:\n  env:\n    https_proxy: http://p:3128\n')]),
      ),
    );
    await env.state.create(KubeletSpec.new(K8S_NAMESPACE, KUBELET_ID, kubeletSpec()));
    await env.state.create(Kubelet.new(SECRETS_NAMESPACE, KUBELET_SECRETS_ID, secrets()));
    await assertNoResource(env.state, ServiceSpec, 'kubelet', { signal });
    await env.state.create(layer('/run/keel/kubernetes'));
    await assertResource(
      env.state,
      ServiceSpec,
      'kubelet',
      (r) => {
        expect(r.spec.args[0]).toBe('/run/keel/kubernetes/usr/bin/kubelet');
        expect(r.spec.env.https_proxy).toBe('http://p:3128');
      },
      { signal },
    );
    // a new endpoint is a new bootstrap kubeconfig
    await env.state.modify(Kubelet.new(SECRETS_NAMESPACE, KUBELET_SECRETS_ID), (r) => {
      r.spec = secrets({ endpoint: 'https://127.0.0.1:7445' });
    });
    await assertResource(
      env.state,
      ServiceSpec,
      'kubelet',
      (r) => expect(r.spec.files[0]?.content).toContain('server: https://127.0.0.1:7445\n'),
      { signal },
    );
    await env.state.destroy(ComponentsLayer.pointer(KUBERNETES_LAYER_ID));
    await assertNoResource(env.state, ServiceSpec, 'kubelet', { signal });
    await env.state.destroy(MachineConfig.pointer('v1alpha1'));
  });

  it('holds the first start on a node until time is synced and the network is ready', async ({ signal }) => {
    const env = startRuntime([kubeletServiceController({ waitForHost: true })]);
    onTestFinished(env.stop);
    await env.state.create(KubeletSpec.new(K8S_NAMESPACE, KUBELET_ID, kubeletSpec()));
    await env.state.create(Kubelet.new(SECRETS_NAMESPACE, KUBELET_SECRETS_ID, secrets()));
    await env.state.create(layer('/k'));
    await env.state.create(
      NetworkStatus.new(NETWORK_NAMESPACE, NETWORK_STATUS_ID, {
        addressReady: true,
        connectivityReady: false,
        hostnameReady: true,
        etcFilesReady: true,
      }),
    );
    await env.state.create(
      TimeStatus.new(TIME_NAMESPACE, TIME_STATUS_ID, { synced: false, epoch: 0, syncDisabled: false }),
    );
    await assertNoResource(env.state, ServiceSpec, 'kubelet', { signal });
    await env.state.modify(TimeStatus.new(TIME_NAMESPACE, TIME_STATUS_ID), (r) => {
      r.spec = { synced: true, epoch: 1, syncDisabled: false };
    });
    await assertResource(env.state, ServiceSpec, 'kubelet', () => {}, { signal });
    // once running, a clock that loses sync does not take the kubelet away
    await env.state.modify(TimeStatus.new(TIME_NAMESPACE, TIME_STATUS_ID), (r) => {
      r.spec = { synced: false, epoch: 2, syncDisabled: false };
    });
    await env.state.modify(KubeletSpec.new(K8S_NAMESPACE, KUBELET_ID), (r) => {
      r.spec = kubeletSpec({ args: ['--v=2'] });
    });
    await assertResource(
      env.state,
      ServiceSpec,
      'kubelet',
      (r) => expect(r.spec.args.slice(1)).toEqual(['--v=2']),
      { signal },
    );
  });
});

describe('the kubelet on the supervisor', () => {
  const teardown: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const t of teardown.splice(0).reverse()) await t();
  });

  it('writes its files, runs once containerd is up, and restarts alone when its secrets change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-kubelet-'));
    teardown.push(() => rmSync(dir, { recursive: true, force: true }));
    // a stand-in kubelet: this test is about the service, not the kubelet
    mkdirSync(join(dir, 'layer/usr/bin'), { recursive: true });
    writeFileSync(join(dir, 'layer/usr/bin/kubelet'), '#!/bin/sh\nexec sleep 1000\n');
    chmodSync(join(dir, 'layer/usr/bin/kubelet'), 0o755);
    const paths = kubeletPathsUnder(join(dir, 'state'), join(dir, 'state/run/containerd/containerd.sock'));

    const events = new EventBus();
    const supervisor = new Supervisor({ events, logs: new LoggingManager() });
    supervisor.startAll();
    teardown.push(() => supervisor.stopAll());
    const host = new SpecHost({ supervisor, kinds: { process: processKind } });
    const env = startRuntime([kubeletServiceController({ paths }), serviceSpecController(host)]);
    teardown.push(env.stop);
    const watching = new AbortController();
    teardown.push(() => watching.abort());
    await env.state.create(
      ServiceSpec.new(ServiceSpec.defaultNamespace, 'containerd', {
        ...ServiceSpec.codec.empty(),
        args: ['/bin/sleep', '1000'],
        env: { PATH: '/usr/bin:/bin' },
      }),
    );

    const until = async (what: string, ok: () => boolean) => {
      for (const deadline = Date.now() + 10_000; !ok(); await new Promise((r) => setTimeout(r, 10)))
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    };
    const stateOf = (id: string) => supervisor.list().find((s) => s.id === id)?.state;
    const pidOf = (id: string) =>
      supervisor
        .info(id)
        .events.map((e) => /started with PID (\d+)/.exec(e.msg)?.[1])
        .filter(Boolean)
        .at(-1);

    await env.state.create(KubeletSpec.new(K8S_NAMESPACE, KUBELET_ID, kubeletSpec()));
    await env.state.create(Kubelet.new(SECRETS_NAMESPACE, KUBELET_SECRETS_ID, secrets()));
    await env.state.create(layer(join(dir, 'layer')));
    await until(
      'kubelet and containerd running',
      () => stateOf('kubelet') === 'Running' && stateOf('containerd') === 'Running',
    );
    const etc = join(dir, 'state/etc/kubernetes');
    expect(readFileSync(join(etc, 'pki/ca.crt'), 'utf8')).toBe('CA-ONE\nCA-TWO\n');
    expect(statSync(join(etc, 'pki/ca.crt')).mode & 0o777).toBe(0o400);
    expect(statSync(join(etc, 'pki')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'state/var/lib/kubelet')).mode & 0o777).toBe(0o700);
    expect(YAML.parse(readFileSync(join(etc, 'bootstrap-kubeconfig'), 'utf8')).users[0].user.token).toBe(
      'abcdef.0123456789abcdef',
    );
    const [kubelet, containerd] = [pidOf('kubelet'), pidOf('containerd')];

    const seen: string[] = [];
    void (async () => {
      for await (const ev of events.watch({ signal: watching.signal })) {
        const p = ev.payload as { type: string; service?: string; action?: string };
        if (p.type === 'machine.ServiceStateEvent') seen.push(`${p.service} ${p.action}`);
      }
    })().catch(() => {});
    await env.state.modify(Kubelet.new(SECRETS_NAMESPACE, KUBELET_SECRETS_ID), (r) => {
      r.spec = secrets({ bootstrapTokenSecret: 'fedcba9876543210' });
    });
    await until('kubelet restarted', () => stateOf('kubelet') === 'Running' && pidOf('kubelet') !== kubelet);
    expect(YAML.parse(readFileSync(join(etc, 'bootstrap-kubeconfig'), 'utf8')).users[0].user.token).toBe(
      'abcdef.fedcba9876543210',
    );
    expect(seen.every((s) => s.startsWith('kubelet '))).toBe(true);
    expect(seen).toEqual(expect.arrayContaining(['kubelet STOPPING', 'kubelet RUNNING']));
    expect(pidOf('containerd')).toBe(containerd);
  });
});
