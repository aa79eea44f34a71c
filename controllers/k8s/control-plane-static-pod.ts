// k8s.ControlPlaneStaticPodController: StaticPods `kube-apiserver`, `kube-controller-manager` and
// `kube-scheduler` (k8s) from the control plane's configs, once etcd is healthy (the API server talks to
// the local member) and the secrets and config files are on disk; the statuses' versions go into the
// pods' annotations, so new files restart the pods. As upstream's: with no etcd service, or no secrets or
// config status, every pod it made goes; an unhealthy etcd leaves them as they are; a disabled
// component's pod goes.
import {
  APISERVER_ID,
  APIServerConfig,
  CONFIG_STATUS_STATIC_POD_ID,
  CONTROLLER_MANAGER_ID,
  ConfigStatus,
  ControllerManagerConfig,
  K8S_CONTROL_PLANE_NAMESPACE,
  SCHEDULER_ID,
  SchedulerConfig,
  SecretsStatus,
  STATIC_POD_SECRETS_STATIC_POD_ID,
  StaticPod,
} from '../../resources/k8s/index.js';
import { Service, V1ALPHA1_NAMESPACE } from '../../resources/v1alpha1/index.js';
import { type ControllerRuntime, defineController, input, output } from '../../src/cosi/controller/index.js';
import { versionString } from '../../src/cosi/resource/version.js';
import { apiServerPod } from './internal/apiserver-pod.js';
import { controllerManagerPod } from './internal/controller-manager-pod.js';
import { schedulerPod } from './internal/scheduler-pod.js';
import { NODE_STATIC_POD_DIRS, type StaticPodDirs } from './static-pod-paths.js';

export const CONTROL_PLANE_STATIC_POD_CONTROLLER = 'k8s.ControlPlaneStaticPodController';
const ETCD_SERVICE_ID = 'etcd';
const cp = { namespace: K8S_CONTROL_PLANE_NAMESPACE };

export function controlPlaneStaticPodController(dirs: StaticPodDirs = NODE_STATIC_POD_DIRS) {
  return defineController({
    name: CONTROL_PLANE_STATIC_POD_CONTROLLER,
    inputs: [
      input(APIServerConfig, cp),
      input(ControllerManagerConfig, cp),
      input(SchedulerConfig, cp),
      input(SecretsStatus, { ...cp, id: STATIC_POD_SECRETS_STATIC_POD_ID }),
      input(ConfigStatus, { ...cp, id: CONFIG_STATUS_STATIC_POD_ID }),
      input(Service, { namespace: V1ALPHA1_NAMESPACE, id: ETCD_SERVICE_ID }),
    ],
    outputs: [output(StaticPod, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const etcd = await rt.getOrNull(Service, ETCD_SERVICE_ID, { signal });
        const secrets = await rt.getOrNull(SecretsStatus, STATIC_POD_SECRETS_STATIC_POD_ID, { signal });
        const configs = await rt.getOrNull(ConfigStatus, CONFIG_STATUS_STATIC_POD_ID, { signal });
        if (!etcd || !secrets || !configs) {
          await destroyOwnedExcept(rt, new Set(), signal);
          continue;
        }
        // the API server would fail against an etcd that does not answer; what runs keeps running
        if (!etcd.spec.healthy) continue;
        const touched = new Set<string>();
        const put = async (id: string, pod: Record<string, unknown>) => {
          await rt.modify(StaticPod, id, () => ({ pod }), { signal });
          touched.add(id);
        };
        const api = await rt.getOrNull(APIServerConfig, APISERVER_ID, { signal });
        if (api)
          await put(
            APISERVER_ID,
            apiServerPod(
              api.spec,
              {
                secrets: secrets.spec.version,
                configFiles: configs.spec.version,
                config: versionString(api.metadata.version),
              },
              dirs,
            ),
          );
        const cm = await rt.getOrNull(ControllerManagerConfig, CONTROLLER_MANAGER_ID, { signal });
        if (cm?.spec.enabled)
          await put(
            CONTROLLER_MANAGER_ID,
            controllerManagerPod(
              cm.spec,
              { secrets: secrets.spec.version, config: versionString(cm.metadata.version) },
              dirs,
            ),
          );
        const sched = await rt.getOrNull(SchedulerConfig, SCHEDULER_ID, { signal });
        if (sched?.spec.enabled)
          await put(
            SCHEDULER_ID,
            schedulerPod(
              sched.spec,
              { secrets: secrets.spec.version, config: versionString(sched.metadata.version) },
              dirs,
            ),
          );
        await destroyOwnedExcept(rt, touched, signal);
        rt.resetBackoff();
      }
    },
  });
}

/** destroyOwnedExcept removes the static pods this controller made that it did not just write. */
async function destroyOwnedExcept(rt: ControllerRuntime, keep: ReadonlySet<string>, signal: AbortSignal) {
  for (const pod of await rt.list(StaticPod, { signal }))
    if (pod.metadata.owner === CONTROL_PLANE_STATIC_POD_CONTROLLER && !keep.has(pod.metadata.id))
      await rt.destroy(pod.metadata, { signal });
}
