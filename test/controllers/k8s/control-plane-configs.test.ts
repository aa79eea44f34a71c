// The control plane's component configs from real generated configs: what a control plane gets by default,
// every setting the config makes, nothing on a worker, and the controllers following a change.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  apiServerConfigOf,
  ControlPlaneAPIServerController,
} from '../../../controllers/k8s/control-plane-apiserver.js';
import {
  ControlPlaneControllerManagerController,
  controllerManagerConfigOf,
} from '../../../controllers/k8s/control-plane-controller-manager.js';
import {
  ControlPlaneSchedulerController,
  schedulerConfigOf,
} from '../../../controllers/k8s/control-plane-scheduler.js';
import { volumeName } from '../../../controllers/k8s/internal/control-plane.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  APISERVER_ID,
  APIServerConfig,
  CONTROLLER_MANAGER_ID,
  ControllerManagerConfig,
  K8S_CONTROL_PLANE_NAMESPACE,
  SCHEDULER_ID,
  SchedulerConfig,
} from '../../../resources/k8s/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

describe('the control plane configs', () => {
  it('are made on a control plane only, with upstream’s defaults', async () => {
    const { controlplane, worker } = await mintCluster();
    expect(apiServerConfigOf(worker)).toBeUndefined();
    expect(controllerManagerConfigOf(worker)).toBeUndefined();
    expect(schedulerConfigOf(worker)).toBeUndefined();
    const api = apiServerConfigOf(controlplane)!;
    expect(api).toMatchObject({
      cloudProvider: '',
      controlPlaneEndpoint: 'https://cp.example.com:6443',
      etcdServers: ['https://127.0.0.1:2379'],
      localPort: 6443,
      serviceCIDRs: ['10.96.0.0/12'],
      advertisedAddress: '$(POD_IP)',
      resources: { requests: { cpu: '', memory: '' } },
    });
    expect(api.image).toMatch(/^registry\.k8s\.io\/kube-apiserver:v\d+\.\d+\.\d+$/);
    expect(controllerManagerConfigOf(controlplane)).toMatchObject({
      enabled: true,
      podCIDRs: ['10.244.0.0/16'],
      serviceCIDRs: ['10.96.0.0/12'],
    });
    expect(schedulerConfigOf(controlplane)).toMatchObject({ enabled: true, config: {} });
  });

  it('carry every setting the config makes', async () => {
    const { controlplane } = await mintCluster();
    const cfg = applyPatches(controlplane, [
      loadPatch(`machine:
  controlPlane:
    controllerManager: { disabled: true }
  kubelet:
    skipNodeRegistration: true
cluster:
  externalCloudProvider: { enabled: true }
  controlPlane: { localAPIServerPort: 7443 }
  apiServer:
    image: example.org/kube-apiserver:v1
    extraArgs: { audit-log-maxage: "7" }
    extraVolumes:
      - { hostPath: /var/lib/audit, mountPath: /var/lib/audit_log.d, readonly: true }
    env: { GODEBUG: x509sha1=1 }
    resources:
      requests: { cpu: 1, memory: 1Gi }
      limits: { memory: 2Gi }
  scheduler:
    config: { profiles: [{ schedulerName: default-scheduler }] }
`),
    ]);
    expect(apiServerConfigOf(cfg)).toMatchObject({
      image: 'example.org/kube-apiserver:v1',
      cloudProvider: 'external',
      localPort: 7443,
      extraArgs: { 'audit-log-maxage': { values: ['7'] } },
      extraVolumes: [
        {
          name: 'var-lib-audit-log-d',
          hostPath: '/var/lib/audit',
          mountPath: '/var/lib/audit_log.d',
          readonly: true,
        },
      ],
      environmentVariables: { GODEBUG: 'x509sha1=1' },
      advertisedAddress: '',
      resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '2Gi' } },
    });
    expect(controllerManagerConfigOf(cfg)).toMatchObject({ enabled: false, cloudProvider: 'external' });
    expect(schedulerConfigOf(cfg)?.config).toEqual({ profiles: [{ schedulerName: 'default-scheduler' }] });
    expect(volumeName('/etc/kubernetes/')).toBe('etc-kubernetes');
  });

  it('follow the config, and go when the node is no longer a control plane', async ({ signal }) => {
    const env = startRuntime([
      ControlPlaneAPIServerController,
      ControlPlaneControllerManagerController,
      ControlPlaneSchedulerController,
    ]);
    onTestFinished(env.stop);
    const { controlplane, worker } = await mintCluster();
    await env.state.create(machineConfig(controlplane));
    const ns = { namespace: K8S_CONTROL_PLANE_NAMESPACE };
    await assertResource(env.state, ControllerManagerConfig, CONTROLLER_MANAGER_ID, () => {}, ns);
    await assertResource(env.state, SchedulerConfig, SCHEDULER_ID, () => {}, ns);
    await assertResource(
      env.state,
      APIServerConfig,
      APISERVER_ID,
      (r) => expect(r.spec.extraArgs).toEqual({}),
      ns,
    );
    const replace = (cfg: typeof controlplane) =>
      env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
        r.spec = machineConfig(cfg).spec;
      });
    await replace(
      applyPatches(controlplane, [loadPatch('cluster:\n  apiServer:\n    extraArgs: { v: "4" }\n')]),
    );
    await assertResource(
      env.state,
      APIServerConfig,
      APISERVER_ID,
      (r) => expect(r.spec.extraArgs).toEqual({ v: { values: ['4'] } }),
      ns,
    );
    await replace(worker);
    await assertNoResource(env.state, APIServerConfig, APISERVER_ID, { ...ns, signal });
    await assertNoResource(env.state, SchedulerConfig, SCHEDULER_ID, { ...ns, signal });
  });
});
