// k8s.ControlPlaneStaticPodController on the real runtime: the control plane's configs from a generated
// config, the secrets and config statuses and etcd's service as a node would have them; the three pods
// appear once etcd is healthy, carry the statuses' versions, follow the config, and go with etcd.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ControlPlaneAPIServerController } from '../../../controllers/k8s/control-plane-apiserver.js';
import { ControlPlaneControllerManagerController } from '../../../controllers/k8s/control-plane-controller-manager.js';
import { ControlPlaneSchedulerController } from '../../../controllers/k8s/control-plane-scheduler.js';
import { controlPlaneStaticPodController } from '../../../controllers/k8s/control-plane-static-pod.js';
import { staticPodDirsUnder } from '../../../controllers/k8s/static-pod-paths.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  CONFIG_STATUS_STATIC_POD_ID,
  ConfigStatus,
  K8S_CONTROL_PLANE_NAMESPACE,
  SecretsStatus,
  STATIC_POD_SECRETS_STATIC_POD_ID,
  StaticPod,
} from '../../../resources/k8s/index.js';
import { Service, V1ALPHA1_NAMESPACE } from '../../../resources/v1alpha1/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { type Cluster, machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
}, 120_000);

const POD_IDS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
type Pod = { metadata: { annotations: Record<string, string> }; spec: { containers: { image: string }[] } };
const podOf = (r: StaticPod) => r.spec.pod as unknown as Pod;

describe('k8s.ControlPlaneStaticPodController', () => {
  it('makes the three pods once etcd is healthy, follows the config, and removes them with etcd', async ({
    signal,
  }) => {
    const env = startRuntime([
      ControlPlaneAPIServerController,
      ControlPlaneControllerManagerController,
      ControlPlaneSchedulerController,
      controlPlaneStaticPodController(staticPodDirsUnder('/state')),
    ]);
    onTestFinished(env.stop);
    const cp = K8S_CONTROL_PLANE_NAMESPACE;
    await env.state.create(machineConfig(cluster.controlplane));
    await env.state.create(
      SecretsStatus.new(cp, STATIC_POD_SECRETS_STATIC_POD_ID, { ready: true, version: '5' }),
    );
    await env.state.create(
      ConfigStatus.new(cp, CONFIG_STATUS_STATIC_POD_ID, { ready: true, version: '1111' }),
    );
    // another controller's static pod: never this one's to remove
    await env.state.create(StaticPod.new('k8s', 'user-pod', { pod: { kind: 'Pod' } }), { owner: 'someone' });
    const etcd = Service.new(V1ALPHA1_NAMESPACE, 'etcd', { running: true, healthy: false, unknown: false });
    await env.state.create(etcd);
    await env.state.modify(etcd, (r) => {
      r.spec.healthy = true;
    });

    for (const id of POD_IDS)
      await assertResource(
        env.state,
        StaticPod,
        id,
        (r) => {
          const pod = podOf(r);
          expect(pod.metadata.annotations['talos.dev/secrets-version']).toBe('5');
          expect(pod.spec.containers[0]!.image).toMatch(new RegExp(`^registry\\.k8s\\.io/${id}:v`));
        },
        { signal },
      );
    await assertResource(
      env.state,
      StaticPod,
      'kube-apiserver',
      (r) => expect(podOf(r).metadata.annotations['talos.dev/config-file-version']).toBe('1111'),
      { signal },
    );

    // new secrets on disk: the annotation moves, so the kubelet restarts the pod
    await env.state.modify(SecretsStatus.new(cp, STATIC_POD_SECRETS_STATIC_POD_ID), (r) => {
      r.spec.version = '6';
    });
    await assertResource(
      env.state,
      StaticPod,
      'kube-scheduler',
      (r) => expect(podOf(r).metadata.annotations['talos.dev/secrets-version']).toBe('6'),
      { signal },
    );

    // the scheduler switched off on this node: its pod goes, the others stay
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(
        applyPatches(cluster.controlplane, [
          loadPatch('machine:\n  controlPlane:\n    scheduler: { disabled: true }\n'),
        ]),
      ).spec;
    });
    await assertNoResource(env.state, StaticPod, 'kube-scheduler', { signal });
    await assertResource(env.state, StaticPod, 'kube-apiserver', () => {}, { signal });

    // no etcd service: every pod it made goes, the other's stays
    await env.state.destroy(Service.pointer('etcd', V1ALPHA1_NAMESPACE));
    await assertNoResource(env.state, StaticPod, 'kube-apiserver', { signal });
    await assertNoResource(env.state, StaticPod, 'kube-controller-manager', { signal });
    await assertResource(env.state, StaticPod, 'user-pod', () => {}, { signal });
  });

  it('waits for the secrets and config files before making any pod', async ({ signal }) => {
    const env = startRuntime([ControlPlaneAPIServerController, controlPlaneStaticPodController()]);
    onTestFinished(env.stop);
    await env.state.create(machineConfig(cluster.controlplane));
    await env.state.create(
      Service.new(V1ALPHA1_NAMESPACE, 'etcd', { running: true, healthy: true, unknown: false }),
    );
    await env.state.create(
      SecretsStatus.new(K8S_CONTROL_PLANE_NAMESPACE, STATIC_POD_SECRETS_STATIC_POD_ID, {
        ready: true,
        version: '1',
      }),
    );
    // no ConfigStatus yet: nothing
    await assertNoResource(env.state, StaticPod, 'kube-apiserver', { signal });
    await env.state.create(
      ConfigStatus.new(K8S_CONTROL_PLANE_NAMESPACE, CONFIG_STATUS_STATIC_POD_ID, {
        ready: true,
        version: '2',
      }),
    );
    await assertResource(env.state, StaticPod, 'kube-apiserver', () => {}, { signal });
  });
});
