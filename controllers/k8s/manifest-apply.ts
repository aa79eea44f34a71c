// k8s.ManifestApplyController: applies the bootstrap Manifests (controlplane) to the cluster through the
// local API server with Talos' own admin kubeconfig, as upstream's: once etcd is healthy, under the etcd
// mutex every control plane shares, skipping what the cluster's inventory already lists, and publishes
// ManifestStatus `manifests` once a pass has gone through without a failure. A failure (the API server
// not answering yet, an object refused) fails the run, so the runtime retries it with backoff.
import {
  K8S_CONTROL_PLANE_NAMESPACE,
  type K8sObject,
  MANIFEST_STATUS_ID,
  Manifest,
  ManifestStatus,
} from '../../resources/k8s/index.js';
import { KUBERNETES_ID, Kubernetes } from '../../resources/secrets/index.js';
import { Service, ServiceSpec } from '../../resources/v1alpha1/index.js';
import { defineController, errorText, input, type Logger, output } from '../../src/cosi/controller/index.js';
import { EtcdClient, withLock } from '../../src/etcd/index.js';
import { discoveryMapper, KubeClient } from '../../src/k8s/index.js';
import { ETCD_SERVICE_ID, etcdClientTLS } from '../etcd/service.js';
import { applyObjects } from './internal/manifest-apply/apply-objects.js';
import { MANIFEST_APPLY_MUTEX } from './internal/manifest-apply/constants.js';
import { ManifestApplyError } from './internal/manifest-apply/errors.js';
import { readInventory, writeInventory } from './internal/manifest-apply/inventory.js';
import { applyOrder } from './internal/manifest-apply/order.js';

export const ManifestApplyController = defineController({
  name: 'k8s.ManifestApplyController',
  inputs: [
    input(Kubernetes, { id: KUBERNETES_ID }),
    input(Manifest, { namespace: K8S_CONTROL_PLANE_NAMESPACE }),
    // etcd must answer: the mutex lives there (the spec says where it listens and who machined is to it)
    input(Service, { id: ETCD_SERVICE_ID }),
    input(ServiceSpec, { id: ETCD_SERVICE_ID }),
  ],
  outputs: [output(ManifestStatus, 'exclusive')],
  async run(rt, { signal, logger }) {
    for await (const _ of rt.events(signal)) {
      const secrets = await rt.getOrNull(Kubernetes, KUBERNETES_ID, { signal });
      const etcd = await rt.getOrNull(Service, ETCD_SERVICE_ID, { signal });
      const etcdSpec = await rt.getOrNull(ServiceSpec, ETCD_SERVICE_ID, { signal });
      // not a control plane, or not up yet: a later event brings them
      if (!secrets || !etcd?.spec.healthy || !etcdSpec) continue;
      // by id, so the objects go in the manifests' order
      const manifests = await rt.list(Manifest, { namespace: K8S_CONTROL_PLANE_NAMESPACE, signal });
      if (manifests.length > 0) {
        const objects = applyOrder(manifests.flatMap((m) => m.spec.items));
        const kube = KubeClient.fromKubeconfig(secrets.spec.localhostAdminKubeconfig);
        const etcdClient = new EtcdClient({
          endpoints: [etcdSpec.spec.options.localEndpoint ?? ''],
          tls: etcdClientTLS(etcdSpec.spec),
        });
        try {
          await withLock(etcdClient, MANIFEST_APPLY_MUTEX, (held) => applyPass(kube, objects, logger, held), {
            signal,
            onReleaseError: (e) => logger.warn('releasing the manifest apply mutex', { error: errorText(e) }),
          });
        } finally {
          kube.close();
          etcdClient.close();
        }
      }
      await rt.modify(
        ManifestStatus,
        MANIFEST_STATUS_ID,
        () => ({ manifestsApplied: manifests.map((m) => m.metadata.id) }),
        { signal },
      );
      rt.resetBackoff();
    }
  },
});

/** applyPass reads the inventory, applies what it lacks, and writes it back however the pass ended. */
async function applyPass(
  kube: KubeClient,
  objects: readonly K8sObject[],
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  const inventory = await readInventory(kube, signal);
  let failed: unknown;
  try {
    const pass = await applyObjects(kube, discoveryMapper(kube), objects, inventory, { signal });
    for (const name of pass.created) logger.info('created', { object: name });
    if (pass.failures.length > 0) failed = new ManifestApplyError(pass.failures);
  } catch (e) {
    failed = e;
  }
  try {
    // written even when the pass ended early, so what was applied is not applied again
    await writeInventory(kube, inventory, signal);
  } catch (e) {
    if (!failed) throw new Error('updating the inventory', { cause: e });
    logger.warn('updating the inventory', { error: errorText(e) });
  }
  if (failed) throw failed;
}
