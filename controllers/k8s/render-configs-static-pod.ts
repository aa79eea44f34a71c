// k8s.RenderConfigsStaticPodController: writes the control plane's config files (admission control,
// audit policy, authorization, the scheduler's config) where its static pods read them, then publishes
// ConfigStatus `static-pods` with the inputs' versions joined, as upstream's: a new version changes the
// API server pod's annotation, and the kubelet restarts it on the new files. It also makes the API server's
// audit log directory (0700, the API server's user), which upstream's /var setup makes.
import {
  ADMISSION_CONTROL_CONFIG_ID,
  AdmissionControlConfig,
  AUDIT_POLICY_CONFIG_ID,
  AUTHORIZATION_CONFIG_ID,
  AuditPolicyConfig,
  AuthorizationConfig,
  CONFIG_STATUS_STATIC_POD_ID,
  ConfigStatus,
  K8S_CONTROL_PLANE_NAMESPACE,
  SCHEDULER_ID,
  SchedulerConfig,
} from '../../resources/k8s/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { versionString } from '../../src/cosi/resource/version.js';
import { ensureDirectory } from '../../src/sys/fs/ensure-directory.js';
import { writeComponentFiles } from './internal/component-files.js';
import { staticPodConfigFiles } from './internal/static-pod-configs.js';
import { RUN_AS } from './static-pod-paths.js';

export interface RenderConfigsOptions {
  /** the host directory of the components' configs (/system/config/kubernetes on a node) */
  readonly configDir: string;
  /** the host directory the API server writes its audit log to (/var/log/audit/kube on a node) */
  readonly auditLogDir: string;
  /** chown each file to its component's user (a node); container mode keeps its own */
  readonly owned: boolean;
}

const ns = { namespace: K8S_CONTROL_PLANE_NAMESPACE };

export function renderConfigsStaticPodController(opts: RenderConfigsOptions) {
  return defineController({
    name: 'k8s.RenderConfigsStaticPodController',
    inputs: [
      input(AdmissionControlConfig, ns),
      input(AuditPolicyConfig, ns),
      input(AuthorizationConfig, ns),
      input(SchedulerConfig, ns),
    ],
    outputs: [output(ConfigStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        const admission = await rt.getOrNull(AdmissionControlConfig, ADMISSION_CONTROL_CONFIG_ID, { signal });
        const audit = await rt.getOrNull(AuditPolicyConfig, AUDIT_POLICY_CONFIG_ID, { signal });
        const authorization = await rt.getOrNull(AuthorizationConfig, AUTHORIZATION_CONFIG_ID, { signal });
        const scheduler = await rt.getOrNull(SchedulerConfig, SCHEDULER_ID, { signal });
        // not a control plane, or its configs not made yet
        if (!admission || !audit || !authorization || !scheduler) continue;
        const layout = staticPodConfigFiles({
          admission: admission.spec,
          audit: audit.spec,
          authorization: authorization.spec,
          scheduler: scheduler.spec,
        });
        const apiserver = RUN_AS['kube-apiserver'];
        ensureDirectory(opts.auditLogDir, {
          mode: 0o700,
          ...(opts.owned ? { owner: { uid: apiserver, gid: apiserver } } : {}),
        });
        for (const { component, files } of layout) {
          const written = writeComponentFiles({ base: opts.configDir, owned: opts.owned }, component, files);
          if (written.length > 0) logger.info('static pod configs written', { component, files: written });
        }
        const version = [admission, audit, authorization, scheduler]
          .map((r) => versionString(r.metadata.version))
          .join('');
        await rt.modify(ConfigStatus, CONFIG_STATUS_STATIC_POD_ID, () => ({ ready: true, version }), {
          signal,
        });
        rt.resetBackoff();
      }
    },
  });
}
