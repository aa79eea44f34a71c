// k8s.KubeletServiceController: the ServiceSpec `kubelet` — the Kubernetes layer's kubelet with KubeletSpec's
// final arguments, and the files upstream's controller writes before each start: its KubeletConfiguration,
// the bootstrap kubeconfig (the bootstrap token against the endpoint KubeletSecrets name), the accepted CAs
// and the credential provider config. A change to any input changes the spec, which restarts the kubelet
// alone. Upstream's service waits for the CRI (a dependency here), for time sync and the network (the
// first spec is held until they are ready, on a node that has its own), and for /var, which the Boot
// sequence has mounted before any spec's service starts.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { KUBELET_ID, KubeletSpec, type KubeletSpecSpec } from '../../resources/k8s/index.js';
import {
  NETWORK_STATUS_ID,
  NetworkStatus,
  type NetworkStatusSpec,
} from '../../resources/network/network-status.js';
import { ComponentsLayer, KUBERNETES_LAYER_ID } from '../../resources/runtime/index.js';
import {
  KUBELET_ID as KUBELET_SECRETS_ID,
  Kubelet,
  type KubeletSpec as KubeletSecretsSpec,
} from '../../resources/secrets/index.js';
import { TIME_STATUS_ID, TimeStatus } from '../../resources/time/index.js';
import { ServiceSpec, type ServiceSpecSpec } from '../../resources/v1alpha1/index.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { CONTAINERD_SERVICE_ID } from '../cri/containerd.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';
import { bootstrapKubeconfig, k8sYAML } from './internal/kubelet-files.js';
import { type KubeletPaths, kubeletFiles, NODE_KUBELET_PATHS } from './kubelet-paths.js';

export const KUBELET_SERVICE_CONTROLLER = 'k8s.KubeletServiceController';
export const KUBELET_SERVICE_ID = 'kubelet';
/** the kubelet's healthz (healthzBindAddress and healthzPort left at the kubelet's defaults) */
export const KUBELET_HEALTHZ_URL = 'http://127.0.0.1:10248/healthz';
/** upstream's constants.CgroupKubelet, below the hierarchy root */
export const KUBELET_CGROUP = 'podruntime/kubelet';
/** upstream gives the kubelet 2 s before the first probe: it is slow to start */
const KUBELET_HEALTH_DELAY_MS = 2000;

export interface KubeletServiceOptions {
  /** where the kubelet's files are; default a node's */
  readonly paths?: KubeletPaths;
  /**
   * whether the first start waits for time sync and the network, as upstream's service condition; a
   * container node keeps its host's clock and network, and has no such statuses
   */
  readonly waitForHost?: boolean;
}

export function kubeletServiceController(opts: KubeletServiceOptions = {}) {
  const paths = opts.paths ?? NODE_KUBELET_PATHS;
  return defineController({
    name: KUBELET_SERVICE_CONTROLLER,
    inputs: [
      input(KubeletSpec, { id: KUBELET_ID }),
      input(Kubelet, { id: KUBELET_SECRETS_ID }),
      input(ComponentsLayer, { id: KUBERNETES_LAYER_ID }),
      input(MachineConfig, { id: MACHINE_CONFIG_ID }),
      input(TimeStatus, { id: TIME_STATUS_ID }),
      input(NetworkStatus, { id: NETWORK_STATUS_ID }),
    ],
    outputs: [output(ServiceSpec, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const spec = await rt.getOrNull(KubeletSpec, KUBELET_ID, { signal });
        const secrets = await rt.getOrNull(Kubelet, KUBELET_SECRETS_ID, { signal });
        const layer = await rt.getOrNull(ComponentsLayer, KUBERNETES_LAYER_ID, { signal });
        const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
        if (!spec || !secrets?.spec.endpoint || !layer) {
          await destroyIfPresent(rt, ServiceSpec.pointer(KUBELET_SERVICE_ID), { signal });
          rt.resetBackoff();
          continue;
        }
        // upstream checks its condition at each start; here once: a running kubelet is not taken away
        // when the clock or a link wavers
        const running = (await rt.getOrNull(ServiceSpec, KUBELET_SERVICE_ID, { signal })) !== null;
        if (opts.waitForHost && !running) {
          const time = await rt.getOrNull(TimeStatus, TIME_STATUS_ID, { signal });
          const net = await rt.getOrNull(NetworkStatus, NETWORK_STATUS_ID, { signal });
          if (!time?.spec.synced || !networkReady(net?.spec)) continue;
        }
        const next = kubeletServiceSpec({
          spec: spec.spec,
          secrets: secrets.spec,
          layerRoot: layer.spec.root,
          env: cfg ? accessors(configOf(cfg.spec)).env() : {},
          paths,
        });
        await rt.modify(ServiceSpec, KUBELET_SERVICE_ID, () => next, { signal });
        rt.resetBackoff();
      }
    },
  });
}

/** networkReady: upstream's kubelet waits for an address, the hostname and the /etc files. */
const networkReady = (s: NetworkStatusSpec | undefined): boolean =>
  s?.addressReady === true && s.hostnameReady && s.etcFilesReady;

export interface KubeletServiceInputs {
  readonly spec: KubeletSpecSpec;
  readonly secrets: KubeletSecretsSpec;
  /** the Kubernetes layer's tree: `<root>/usr/bin/kubelet` */
  readonly layerRoot: string;
  /** machine.env and the EnvironmentConfig's variables (the proxy settings among them) */
  readonly env: Readonly<Record<string, string>>;
  readonly paths: KubeletPaths;
}

/** kubeletServiceSpec is the whole service, as data: pure, so one test pins it. */
export function kubeletServiceSpec(i: KubeletServiceInputs): ServiceSpecSpec {
  const { spec, secrets, paths } = i;
  const files = kubeletFiles(paths);
  const caBundle = secrets.acceptedCAs.map((c) => c.crt).join('');
  return {
    kind: 'process',
    args: [`${i.layerRoot}/usr/bin/kubelet`, ...spec.args],
    // the kubelet runs mount and the layer's tools by name
    env: { PATH: `${i.layerRoot}/usr/bin:/usr/bin:/usr/sbin:/bin:/sbin`, ...i.env },
    uid: 0,
    gid: 0,
    dependsOn: [CONTAINERD_SERVICE_ID],
    // upstream's directory volumes for the kubelet, with their modes
    dirs: [
      { path: `${paths.etcKubernetes}/pki`, mode: 0o700 },
      { path: files.manifests, mode: 0o755 },
      { path: paths.rootDir, mode: 0o700 },
      { path: `${paths.rootDir}/seccomp`, mode: 0o700 },
      { path: files.seccompProfiles, mode: 0o700 },
      { path: paths.podLogs, mode: 0o755 },
      { path: paths.containerLogs, mode: 0o755 },
    ],
    files: [
      {
        path: files.bootstrapKubeconfig,
        mode: 0o600,
        content: bootstrapKubeconfig({
          server: secrets.endpoint ?? '',
          caBundle,
          tokenID: secrets.bootstrapTokenID,
          tokenSecret: secrets.bootstrapTokenSecret,
        }),
      },
      { path: files.caCert, mode: 0o400, content: caBundle },
      { path: files.config, mode: 0o600, content: k8sYAML(spec.config) },
      ...(spec.credentialProviderConfig
        ? [
            {
              path: files.credentialProviderConfig,
              mode: 0o600,
              content: k8sYAML(spec.credentialProviderConfig),
            },
          ]
        : []),
    ],
    health: { kind: 'http', url: KUBELET_HEALTHZ_URL, initialDelayMs: KUBELET_HEALTH_DELAY_MS },
    apiControl: true,
    cgroup: KUBELET_CGROUP,
    options: {},
  };
}
