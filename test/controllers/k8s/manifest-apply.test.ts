// ManifestApplyController on the in-memory runtime, without a cluster: once the admin kubeconfig and a
// healthy etcd are there, with no manifests to apply it publishes an empty ManifestStatus without dialing
// anything. (The apply itself runs against a real etcd and API server in
// test/integration/k8s/manifest-apply.test.ts.)
import { describe, expect, it, onTestFinished } from 'vitest';
import { ETCD_SERVICE_ID } from '../../../controllers/etcd/service.js';
import { ManifestApplyController } from '../../../controllers/k8s/manifest-apply.js';
import {
  K8S_CONTROL_PLANE_NAMESPACE,
  MANIFEST_STATUS_ID,
  ManifestStatus,
} from '../../../resources/k8s/index.js';
import { KUBERNETES_ID, Kubernetes, SECRETS_NAMESPACE } from '../../../resources/secrets/index.js';
import { Service, ServiceSpec, V1ALPHA1_NAMESPACE } from '../../../resources/v1alpha1/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const etcdService = (healthy: boolean) =>
  Service.new(V1ALPHA1_NAMESPACE, ETCD_SERVICE_ID, { running: true, healthy, unknown: false });

describe('ManifestApplyController', () => {
  it('records that there was nothing to apply once etcd is healthy', async ({ signal }) => {
    const env = startRuntime([ManifestApplyController]);
    onTestFinished(env.stop);
    await env.state.create(
      Kubernetes.new(SECRETS_NAMESPACE, KUBERNETES_ID, {
        schedulerKubeconfig: '',
        controllerManagerKubeconfig: '',
        localhostAdminKubeconfig: '',
        adminKubeconfig: '',
      }),
    );
    await env.state.create(ServiceSpec.new(V1ALPHA1_NAMESPACE, ETCD_SERVICE_ID));
    await env.state.create(etcdService(false));
    // the unhealthy etcd wakes the controller, which leaves the status alone; the healthy one writes it
    await env.state.modify(etcdService(true), (r) => {
      r.spec.healthy = true;
    });
    await assertResource(
      env.state,
      ManifestStatus,
      MANIFEST_STATUS_ID,
      (r) => {
        expect(r.metadata.namespace).toBe(K8S_CONTROL_PLANE_NAMESPACE);
        expect(r.spec.manifestsApplied).toEqual([]);
      },
      { signal },
    );
  });
});
