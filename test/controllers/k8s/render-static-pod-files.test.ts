// The control plane's secrets and config files, written where its static pods read them: the layout as
// pure data, then the render controllers on a real secrets chain (a control plane config, the node's
// identity) writing into a temporary directory and publishing the statuses the pods' annotations carry.
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import YAML from 'yaml';
import { MachineTypeController } from '../../../controllers/config/index.js';
import { ControlPlaneAdmissionControlController } from '../../../controllers/k8s/control-plane-admission-control.js';
import { ControlPlaneAuditPolicyController } from '../../../controllers/k8s/control-plane-audit-policy.js';
import { ControlPlaneAuthorizationController } from '../../../controllers/k8s/control-plane-authorization.js';
import { ControlPlaneSchedulerController } from '../../../controllers/k8s/control-plane-scheduler.js';
import {
  encryptionConfig,
  serviceAccountPair,
} from '../../../controllers/k8s/internal/static-pod-secrets.js';
import { renderConfigsStaticPodController } from '../../../controllers/k8s/render-configs-static-pod.js';
import { renderSecretsStaticPodController } from '../../../controllers/k8s/render-secrets-static-pod.js';
import { secretsControllers } from '../../../controllers/secrets/index.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  CONFIG_STATUS_STATIC_POD_ID,
  ConfigStatus,
  SecretsStatus,
  STATIC_POD_SECRETS_STATIC_POD_ID,
} from '../../../resources/k8s/index.js';
import { KUBERNETES_ID, Kubernetes, KubernetesRoot } from '../../../resources/secrets/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { versionString } from '../../../src/cosi/resource/version.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import {
  type Cluster,
  hostname,
  machineConfig,
  mintCluster,
  nodeAddresses,
  startRuntime,
} from '../secrets/env.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
}, 120_000);

describe('the static pod secret files, as data', () => {
  it('encrypt secrets with secretbox, then aescbc, then none', () => {
    const root = { secretboxEncryptionSecret: 'sb', aesCBCEncryptionSecret: 'cbc' };
    expect(YAML.parse(encryptionConfig(root as never))).toEqual({
      kind: 'EncryptionConfig',
      apiVersion: 'v1',
      resources: [
        {
          resources: ['secrets'],
          providers: [
            { secretbox: { keys: [{ name: 'key2', secret: 'sb' }] } },
            { aescbc: { keys: [{ name: 'key1', secret: 'cbc' }] } },
            { identity: {} },
          ],
        },
      ],
    });
  });
});

describe('the render controllers', () => {
  it('write every component’s files, read-only, and publish the versions', async ({ signal }) => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-static-pod-files-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const secretsDir = join(dir, 'system/secrets/kubernetes');
    const configDir = join(dir, 'system/config/kubernetes');
    const auditLogDir = join(dir, 'var/log/audit/kube');
    const env = startRuntime([
      MachineTypeController,
      ...secretsControllers(),
      ControlPlaneSchedulerController,
      ControlPlaneAdmissionControlController,
      ControlPlaneAuditPolicyController,
      ControlPlaneAuthorizationController,
      renderSecretsStaticPodController({ secretsDir, owned: false }),
      renderConfigsStaticPodController({ configDir, auditLogDir, owned: false }),
    ]);
    onTestFinished(env.stop);
    await env.state.create(machineConfig(cluster.controlplane));
    await env.state.create(hostname('cp1', 'example.com'));
    await env.state.create(nodeAddresses('10.5.0.2/24'));

    const secrets = await assertResource(
      env.state,
      SecretsStatus,
      STATIC_POD_SECRETS_STATIC_POD_ID,
      (r) => expect(r.spec.ready).toBe(true),
      { signal },
    );
    const kubeconfigs = await assertResource(env.state, Kubernetes, KUBERNETES_ID, () => {}, { signal });
    expect(secrets.spec.version).toBe(versionString(kubeconfigs.metadata.version));
    const files = (c: string) => readdirSync(join(secretsDir, c)).sort();
    expect(files('kube-apiserver')).toEqual(
      [
        'aggregator-ca.crt',
        'apiserver-kubelet-client.crt',
        'apiserver-kubelet-client.key',
        'apiserver.crt',
        'apiserver.key',
        'ca.crt',
        'encryptionconfig.yaml',
        'etcd-client-ca.crt',
        'etcd-client.crt',
        'etcd-client.key',
        'front-proxy-client.crt',
        'front-proxy-client.key',
        'service-account.key',
        'service-account.pub',
      ].sort(),
    );
    expect(files('kube-controller-manager')).toEqual([
      'ca.crt',
      'ca.key',
      'kubeconfig',
      'service-account.key',
    ]);
    expect(files('kube-scheduler')).toEqual(['kubeconfig']);
    const read = (...p: string[]) => readFileSync(join(secretsDir, ...p), 'utf8');
    expect(statSync(join(secretsDir, 'kube-apiserver/apiserver.key')).mode & 0o777).toBe(0o400);
    expect(read('kube-scheduler/kubeconfig')).toBe(kubeconfigs.spec.schedulerKubeconfig);
    const root = await assertResource(env.state, KubernetesRoot, 'k8s', () => {}, { signal });
    expect(read('kube-apiserver/ca.crt')).toBe(root.spec.acceptedCAs.map((c) => c.crt).join(''));
    // the public half the API server verifies tokens with is the signing key's
    const pub = read('kube-apiserver/service-account.pub');
    expect(pub).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(createPublicKey(pub).export({ type: 'spki', format: 'pem' })).toBe(
      createPublicKey(read('kube-apiserver/service-account.key')).export({ type: 'spki', format: 'pem' }),
    );
    expect(serviceAccountPair(root.spec.serviceAccount!.key).crt).toBe(pub);
    const enc = YAML.parse(read('kube-apiserver/encryptionconfig.yaml'));
    expect(enc.resources[0].providers.at(-1)).toEqual({ identity: {} });

    const configs = await assertResource(
      env.state,
      ConfigStatus,
      CONFIG_STATUS_STATIC_POD_ID,
      (r) => expect(r.spec.ready).toBe(true),
      { signal },
    );
    // the API server's audit log directory, private to it
    expect(statSync(auditLogDir).mode & 0o777).toBe(0o700);
    const config = (...p: string[]) => YAML.parse(readFileSync(join(configDir, ...p), 'utf8'));
    expect(config('kube-apiserver/admission-control-config.yaml')).toMatchObject({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{ name: 'PodSecurity', configuration: { kind: 'PodSecurityConfiguration' } }],
    });
    expect(config('kube-apiserver/auditpolicy.yaml')).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      rules: [{ level: 'Metadata' }],
    });
    expect(config('kube-apiserver/authorization-config.yaml')).toEqual({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthorizationConfiguration',
      authorizers: [
        { type: 'Node', name: 'node' },
        { type: 'RBAC', name: 'rbac' },
      ],
    });
    expect(config('kube-scheduler/scheduler-config.yaml')).toEqual({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      clientConnection: { kubeconfig: '/system/secrets/kubernetes/kube-scheduler/kubeconfig' },
    });

    // a scheduler config change rewrites its file and moves the version the pods carry
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(
        applyPatches(cluster.controlplane, [
          loadPatch(
            'cluster:\n  scheduler:\n    config:\n      profiles: [{ schedulerName: default-scheduler }]\n',
          ),
        ]),
      ).spec;
    });
    await assertResource(
      env.state,
      ConfigStatus,
      CONFIG_STATUS_STATIC_POD_ID,
      (r) => expect(r.spec.version).not.toBe(configs.spec.version),
      { signal },
    );
    expect(config('kube-scheduler/scheduler-config.yaml').profiles).toEqual([
      { schedulerName: 'default-scheduler' },
    ]);
  });
});
