// The control plane's three static pods as pure functions of their configs: every argument, mount,
// probe, label and annotation upstream's controller puts in them, the user's settings merged in, and the
// flags Keel owns refused.
import { describe, expect, it } from 'vitest';
import {
  apiServerCommand,
  apiServerPod,
  authorizationArgs,
} from '../../../controllers/k8s/internal/apiserver-pod.js';
import {
  controllerManagerCommand,
  controllerManagerPod,
} from '../../../controllers/k8s/internal/controller-manager-pod.js';
import { versionFromImageRef } from '../../../controllers/k8s/internal/kube-version.js';
import { schedulerCommand, schedulerPod } from '../../../controllers/k8s/internal/scheduler-pod.js';
import { NODE_STATIC_POD_DIRS, staticPodDirsUnder } from '../../../controllers/k8s/static-pod-paths.js';
import type {
  APIServerConfigSpec,
  ControllerManagerConfigSpec,
  SchedulerConfigSpec,
} from '../../../resources/k8s/index.js';

const API: APIServerConfigSpec = {
  image: 'registry.k8s.io/kube-apiserver:v1.34.4',
  cloudProvider: '',
  controlPlaneEndpoint: 'https://cp.example.com:6443',
  etcdServers: ['https://127.0.0.1:2379'],
  localPort: 6443,
  serviceCIDRs: ['10.96.0.0/12'],
  extraArgs: {},
  extraVolumes: [],
  environmentVariables: {},
  advertisedAddress: '$(POD_IP)',
  resources: { requests: { cpu: '', memory: '' } },
};

const CM: ControllerManagerConfigSpec = {
  enabled: true,
  image: 'registry.k8s.io/kube-controller-manager:v1.34.4',
  cloudProvider: '',
  podCIDRs: ['10.244.0.0/16'],
  serviceCIDRs: ['10.96.0.0/12'],
  extraArgs: {},
  extraVolumes: [],
  environmentVariables: {},
  resources: { requests: { cpu: '', memory: '' } },
};

const SCHED: SchedulerConfigSpec = {
  enabled: true,
  image: 'registry.k8s.io/kube-scheduler:v1.34.4',
  extraArgs: {},
  extraVolumes: [],
  environmentVariables: {},
  resources: { requests: { cpu: '', memory: '' } },
  config: {},
};

const S = '/system/secrets/kubernetes/kube-apiserver';
const C = '/system/config/kubernetes/kube-apiserver';
const VERSIONS = { secrets: '7', configFiles: '1234', config: '3' };

describe('the kube-apiserver pod', () => {
  it('runs with upstream’s arguments, sorted', () => {
    expect(apiServerCommand(API)).toEqual([
      '/usr/local/bin/kube-apiserver',
      `--admission-control-config-file=${C}/admission-control-config.yaml`,
      '--advertise-address=$(POD_IP)',
      '--allow-privileged=true',
      '--anonymous-auth=false',
      '--api-audiences=https://cp.example.com:6443',
      '--audit-log-maxage=30',
      '--audit-log-maxbackup=10',
      '--audit-log-maxsize=100',
      '--audit-log-path=/var/log/audit/kube/kube-apiserver.log',
      `--audit-policy-file=${C}/auditpolicy.yaml`,
      `--authorization-config=${C}/authorization-config.yaml`,
      '--bind-address=0.0.0.0',
      `--client-ca-file=${S}/ca.crt`,
      '--enable-admission-plugins=NodeRestriction',
      '--enable-bootstrap-token-auth=true',
      `--encryption-provider-config=${S}/encryptionconfig.yaml`,
      `--etcd-cafile=${S}/etcd-client-ca.crt`,
      `--etcd-certfile=${S}/etcd-client.crt`,
      `--etcd-keyfile=${S}/etcd-client.key`,
      '--etcd-servers=https://127.0.0.1:2379',
      `--kubelet-client-certificate=${S}/apiserver-kubelet-client.crt`,
      `--kubelet-client-key=${S}/apiserver-kubelet-client.key`,
      '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
      '--profiling=false',
      `--proxy-client-cert-file=${S}/front-proxy-client.crt`,
      `--proxy-client-key-file=${S}/front-proxy-client.key`,
      '--requestheader-allowed-names=front-proxy-client',
      `--requestheader-client-ca-file=${S}/aggregator-ca.crt`,
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-username-headers=X-Remote-User',
      '--secure-port=6443',
      '--service-account-issuer=https://cp.example.com:6443',
      `--service-account-key-file=${S}/service-account.pub`,
      `--service-account-signing-key-file=${S}/service-account.key`,
      '--service-cluster-ip-range=10.96.0.0/12',
      `--tls-cert-file=${S}/apiserver.crt`,
      '--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
      '--tls-min-version=VersionTLS12',
      `--tls-private-key-file=${S}/apiserver.key`,
    ]);
  });

  it('is a host-network, system-critical pod in kube-system with the versions as annotations', () => {
    expect(apiServerPod(API, VERSIONS, NODE_STATIC_POD_DIRS)).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name: 'kube-apiserver',
        namespace: 'kube-system',
        creationTimestamp: null,
        labels: {
          tier: 'control-plane',
          'k8s-app': 'kube-apiserver',
          component: 'kube-apiserver',
          'app.kubernetes.io/name': 'kube-apiserver',
          'app.kubernetes.io/version': '1.34.4',
          'app.kubernetes.io/component': 'control-plane',
          'app.kubernetes.io/managed-by': 'Keel',
        },
        annotations: {
          'talos.dev/secrets-version': '7',
          'talos.dev/config-file-version': '1234',
          'talos.dev/config-version': '3',
        },
      },
      spec: {
        volumes: [
          { name: 'secrets', hostPath: { path: S } },
          { name: 'config', hostPath: { path: C } },
          { name: 'audit', hostPath: { path: '/var/log/audit/kube' } },
        ],
        containers: [
          {
            name: 'kube-apiserver',
            image: 'registry.k8s.io/kube-apiserver:v1.34.4',
            command: apiServerCommand(API),
            env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
            resources: { requests: { cpu: '200m', memory: '512Mi' } },
            volumeMounts: [
              { name: 'secrets', readOnly: true, mountPath: S },
              { name: 'config', readOnly: true, mountPath: C },
              { name: 'audit', mountPath: '/var/log/audit/kube' },
            ],
            // Keel's: the log's tail is the message of a container that exits on an error
            terminationMessagePolicy: 'FallbackToLogsOnError',
            securityContext: {
              capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
              allowPrivilegeEscalation: false,
              seccompProfile: { type: 'RuntimeDefault' },
            },
          },
        ],
        hostNetwork: true,
        securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true },
        priorityClassName: 'system-cluster-critical',
        priority: 2000000000,
      },
      status: {},
    });
  });

  it('merges the user’s arguments, volumes, environment and resources', () => {
    const pod = apiServerPod(
      {
        ...API,
        image: 'example.org/kube-apiserver:v1.32.1',
        cloudProvider: 'external',
        extraArgs: {
          'enable-admission-plugins': { values: ['PodSecurity,NodeRestriction'] },
          'feature-gates': { values: ['Foo=true'] },
          'audit-log-maxage': { values: ['7'] },
        },
        extraVolumes: [{ name: 'var-lib-x', hostPath: '/var/lib/x', mountPath: '/x', readonly: false }],
        environmentVariables: { B: 'b$1', A: 'a' },
        resources: { requests: { cpu: '1', memory: '' }, limits: { memory: '2Gi' } },
      },
      VERSIONS,
      staticPodDirsUnder('/state'),
    );
    const spec = pod.spec as { containers: Record<string, unknown>[]; volumes: unknown[] };
    const c = spec.containers[0]!;
    expect(c.command).toContain('--enable-admission-plugins=NodeRestriction,PodSecurity');
    expect(c.command).toContain('--audit-log-maxage=7');
    expect(c.command).toContain('--cloud-provider=external');
    expect(c.command).toContain('--feature-gates=Foo=true');
    expect(c.env).toEqual([
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'A', value: 'a' },
      { name: 'B', value: 'b$$1' },
      { name: 'GOMEMLIMIT', value: String(Math.trunc((2 * 2 ** 30 * 95) / 100)) },
    ]);
    expect(c.resources).toEqual({ limits: { memory: '2Gi' }, requests: { cpu: '1', memory: '512Mi' } });
    expect(c.volumeMounts).toContainEqual({ name: 'var-lib-x', mountPath: '/x' });
    // the pod sees upstream's paths; the host's are where the container node keeps them
    expect(spec.volumes.slice(0, 3)).toEqual([
      { name: 'secrets', hostPath: { path: `/state${S}` } },
      { name: 'config', hostPath: { path: `/state${C}` } },
      { name: 'audit', hostPath: { path: '/state/var/log/audit/kube' } },
      // the user's volume names a host path of its own
    ]);
    expect(spec.volumes[3]).toEqual({ name: 'var-lib-x', hostPath: { path: '/var/lib/x' } });
  });

  it('refuses the files Keel writes as extra arguments, and a bad quantity', () => {
    for (const flag of ['etcd-servers', 'tls-cert-file', 'authorization-config', 'service-account-key-file'])
      expect(() => apiServerCommand({ ...API, extraArgs: { [flag]: { values: ['x'] } } })).toThrow(
        `extra arg "${flag}" is not allowed`,
      );
    expect(() =>
      apiServerPod(
        { ...API, resources: { requests: { cpu: 'lots', memory: '' } } },
        VERSIONS,
        NODE_STATIC_POD_DIRS,
      ),
    ).toThrow('error parsing CPU request');
  });

  it('picks the authorization flags by version and by the user’s flags', () => {
    const none = new Map<string, string[]>();
    const cfg = '/system/config/kubernetes/kube-apiserver/authorization-config.yaml';
    expect(authorizationArgs(versionFromImageRef('k:v1.28.0'), none)).toEqual(
      new Map([['authorization-mode', ['Node,RBAC']]]),
    );
    expect(authorizationArgs(versionFromImageRef('k:v1.29.3'), none)).toEqual(
      new Map([
        ['authorization-config', [cfg]],
        ['feature-gates', ['StructuredAuthorizationConfiguration=true']],
      ]),
    );
    expect(authorizationArgs(versionFromImageRef('k:v1.34.4'), none)).toEqual(
      new Map([['authorization-config', [cfg]]]),
    );
    const webhook = new Map([['authorization-webhook-version', ['v1']]]);
    expect(authorizationArgs(versionFromImageRef('k:v1.34.4'), webhook).get('authorization-mode')).toEqual([
      'Node,RBAC',
    ]);
    const mode = { 'authorization-mode': { values: ['Webhook'] } };
    expect(apiServerCommand({ ...API, extraArgs: mode })).toContain('--authorization-mode=Node,RBAC,Webhook');
  });
});

describe('the kube-controller-manager pod', () => {
  it('runs with upstream’s arguments and probes its secure port', () => {
    const s = '/system/secrets/kubernetes/kube-controller-manager';
    expect(controllerManagerCommand(CM)).toEqual([
      '/usr/local/bin/kube-controller-manager',
      '--use-service-account-credentials',
      '--allocate-node-cidrs=true',
      `--authentication-kubeconfig=${s}/kubeconfig`,
      `--authorization-kubeconfig=${s}/kubeconfig`,
      '--bind-address=127.0.0.1',
      '--cluster-cidr=10.244.0.0/16',
      `--cluster-signing-cert-file=${s}/ca.crt`,
      `--cluster-signing-key-file=${s}/ca.key`,
      '--configure-cloud-routes=false',
      '--controllers=*,tokencleaner',
      `--kubeconfig=${s}/kubeconfig`,
      '--leader-elect=true',
      '--profiling=false',
      `--root-ca-file=${s}/ca.crt`,
      `--service-account-private-key-file=${s}/service-account.key`,
      '--service-cluster-ip-range=10.96.0.0/12',
      '--tls-min-version=VersionTLS13',
    ]);
    const pod = controllerManagerPod(CM, { secrets: '7', config: '2' }, NODE_STATIC_POD_DIRS);
    expect((pod.metadata as Record<string, unknown>).annotations).toEqual({
      'talos.dev/secrets-version': '7',
      'talos.dev/config-version': '2',
    });
    const spec = pod.spec as Record<string, unknown>;
    expect(spec.securityContext).toEqual({ runAsUser: 65535, runAsGroup: 65535, runAsNonRoot: true });
    expect(spec.volumes).toEqual([{ name: 'secrets', hostPath: { path: s } }]);
    const c = (spec.containers as Record<string, unknown>[])[0]!;
    expect(c.resources).toEqual({ requests: { cpu: '50m', memory: '256Mi' } });
    expect(c.volumeMounts).toEqual([{ name: 'secrets', readOnly: true, mountPath: s }]);
    const get = { path: '/healthz', port: 10257, host: 'localhost', scheme: 'HTTPS' };
    // Keel's five minutes to start (upstream: one), for slow machines
    expect(c.startupProbe).toEqual({
      httpGet: get,
      periodSeconds: 5,
      failureThreshold: 60,
      timeoutSeconds: 5,
    });
    expect(c.livenessProbe).toEqual({ httpGet: get, timeoutSeconds: 15 });
    expect(c.terminationMessagePolicy).toBe('FallbackToLogsOnError');
    expect(c.securityContext).toEqual({
      capabilities: { drop: ['ALL'] },
      allowPrivilegeEscalation: false,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  it('adds the user’s controllers, and keeps the signing files its own', () => {
    const extra = { controllers: { values: ['bootstrapsigner'] } };
    expect(controllerManagerCommand({ ...CM, extraArgs: extra })).toContain(
      '--controllers=*,tokencleaner,bootstrapsigner',
    );
    expect(() =>
      controllerManagerCommand({ ...CM, extraArgs: { 'root-ca-file': { values: ['/x'] } } }),
    ).toThrow('extra arg "root-ca-file" is not allowed');
    // --cloud-provider went away in 1.33
    expect(controllerManagerCommand({ ...CM, cloudProvider: 'external' })).not.toContain(
      '--cloud-provider=external',
    );
    expect(controllerManagerCommand({ ...CM, image: 'k:v1.32.0', cloudProvider: 'external' })).toContain(
      '--cloud-provider=external',
    );
  });
});

describe('the kube-scheduler pod', () => {
  it('runs with upstream’s arguments, its config and secrets mounted, and probes by version', () => {
    const s = '/system/secrets/kubernetes/kube-scheduler';
    const c = '/system/config/kubernetes/kube-scheduler';
    expect(schedulerCommand(SCHED)).toEqual([
      '/usr/local/bin/kube-scheduler',
      `--authentication-kubeconfig=${s}/kubeconfig`,
      '--authentication-tolerate-lookup-failure=false',
      `--authorization-kubeconfig=${s}/kubeconfig`,
      '--bind-address=127.0.0.1',
      `--config=${c}/scheduler-config.yaml`,
      '--leader-elect=true',
      '--profiling=false',
      '--tls-min-version=VersionTLS13',
    ]);
    const pod = schedulerPod(SCHED, { secrets: '7', config: '2' }, NODE_STATIC_POD_DIRS);
    const spec = pod.spec as Record<string, unknown>;
    expect(spec.securityContext).toEqual({ runAsUser: 65536, runAsGroup: 65536, runAsNonRoot: true });
    expect(spec.volumes).toEqual([
      { name: 'secrets', hostPath: { path: s } },
      { name: 'config', hostPath: { path: c } },
    ]);
    const ctr = (spec.containers as Record<string, unknown>[])[0]!;
    expect(ctr.resources).toEqual({ requests: { cpu: '10m', memory: '64Mi' } });
    const probe = (path: string) => ({ httpGet: { path, port: 10259, host: 'localhost', scheme: 'HTTPS' } });
    // upstream's probes with the defaults' timing; Keel's: the controller manager's liveness timeout, and
    // five minutes to start
    expect([ctr.livenessProbe, ctr.readinessProbe, ctr.startupProbe]).toEqual([
      { ...probe('/livez'), timeoutSeconds: 15 },
      probe('/readyz'),
      { ...probe('/livez'), periodSeconds: 5, failureThreshold: 60, timeoutSeconds: 5 },
    ]);
    const old = schedulerPod(
      { ...SCHED, image: 'k:v1.30.2' },
      { secrets: '', config: '' },
      NODE_STATIC_POD_DIRS,
    );
    const oldCtr = ((old.spec as Record<string, unknown>).containers as Record<string, unknown>[])[0]!;
    expect(oldCtr.readinessProbe).toEqual(probe('/healthz'));
    expect(ctr.terminationMessagePolicy).toBe('FallbackToLogsOnError');
    expect(() => schedulerCommand({ ...SCHED, extraArgs: { config: { values: ['/x'] } } })).toThrow(
      'extra arg "config" is not allowed',
    );
  });
});
