// k8s.KubeletStaticPodController: a StaticPodStatus `<namespace>/<name>` for each static pod the local
// kubelet runs (the status half of upstream's controller of that name). While the kubelet service runs it
// asks the kubelet for its pods every refreshMs (upstream: 15 s) with the API server's kubelet client
// certificate, which only a control plane has: a worker's kubelet answers only the API server. Statuses
// of pods gone are removed, and all of them once the kubelet stops. A kubelet that does not answer yet
// (starting, restarting) is asked again at the next tick, the reason logged once per change rather than
// the controller failing as upstream's does, so a kubelet's start does not fill the log.
import {
  K8S_NAMESPACE,
  NODENAME_ID,
  Nodename,
  StaticPodStatus,
  type StaticPodStatusSpec,
} from '../../resources/k8s/index.js';
import {
  KUBERNETES_DYNAMIC_CERTS_ID,
  KUBERNETES_ROOT_ID,
  KubernetesDynamicCerts,
  KubernetesRoot,
} from '../../resources/secrets/index.js';
import { Service } from '../../resources/v1alpha1/index.js';
import { type ControllerRuntime, defineController, input, output } from '../../src/cosi/controller/index.js';
import {
  KubeClient,
  type KubeEndpoint,
  KubeError,
  type KubeletPod,
  kubeletEndpoint,
  kubeletPods,
  readKubeletServingCert,
} from '../../src/k8s/index.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';
import { type KubeletPaths, kubeletFiles, NODE_KUBELET_PATHS } from './kubelet-paths.js';
import { KUBELET_SERVICE_ID } from './kubelet-service.js';

export const KUBELET_STATIC_POD_CONTROLLER = 'k8s.KubeletStaticPodController';
/** the annotation the kubelet gives a pod: `file` or `http` for a static pod, `api` for the API server's */
export const ANNOTATION_CONFIG_SOURCE = 'kubernetes.io/config.source';
const STATIC_SOURCES: ReadonlySet<string> = new Set(['file', 'http']);
/** upstream's request timeout */
const REQUEST_TIMEOUT_MS = 30_000;

export interface KubeletStaticPodOptions {
  /** where the kubelet keeps its self-signed serving certificate; default a node's */
  readonly kubelet?: KubeletPaths;
  /** how often the kubelet is asked; 15 s */
  readonly refreshMs?: number;
  /** the kubelet's API; default https://127.0.0.1:10250 */
  readonly server?: string;
}

export function kubeletStaticPodController(opts: KubeletStaticPodOptions = {}) {
  const certDir = kubeletFiles(opts.kubelet ?? NODE_KUBELET_PATHS).pkiDir;
  const refreshMs = opts.refreshMs ?? 15_000;
  return defineController({
    name: KUBELET_STATIC_POD_CONTROLLER,
    inputs: [
      input(Nodename, { id: NODENAME_ID }),
      input(Service, { id: KUBELET_SERVICE_ID }),
      input(KubernetesDynamicCerts, { id: KUBERNETES_DYNAMIC_CERTS_ID }),
      input(KubernetesRoot, { id: KUBERNETES_ROOT_ID }),
    ],
    outputs: [output(StaticPodStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      let timer: NodeJS.Timeout | undefined;
      let client: { of: string; client: KubeClient } | undefined;
      /** why the last ask failed, '' when it did not: logged only when it changes */
      let failing = '';
      const dropClient = () => {
        client?.client.close();
        client = undefined;
      };
      try {
        for await (const _ of rt.events(signal)) {
          clearTimeout(timer);
          timer = undefined;
          const endpoint = await endpointOf(rt, certDir, opts.server, signal);
          if (endpoint === undefined) {
            dropClient();
            failing = '';
            await teardown(rt, signal);
            rt.resetBackoff();
            continue;
          }
          const of = JSON.stringify(endpoint);
          if (client?.of !== of) {
            dropClient();
            client = { of, client: new KubeClient(endpoint, { timeoutMs: REQUEST_TIMEOUT_MS }) };
          }
          let pods: KubeletPod[] | undefined;
          try {
            pods = await kubeletPods(client.client, { signal });
          } catch (e) {
            // anything but the kubelet's own answer (or its silence) is a real failure
            if (!(e instanceof KubeError)) throw e;
            if (e.message !== failing) logger.info('kubelet pods not read', { reason: e.message });
            failing = e.message;
          }
          if (pods) {
            if (failing) logger.info('kubelet pods read again');
            failing = '';
            await publish(rt, staticPodStatuses(pods), signal);
          }
          timer = setTimeout(() => rt.queueReconcile(), refreshMs);
          rt.resetBackoff();
        }
      } finally {
        clearTimeout(timer);
        dropClient();
      }
    },
  });
}

/** KubeletStaticPodController on a node's paths. */
export const KubeletStaticPodController = kubeletStaticPodController();

/**
 * endpointOf: how to ask the kubelet, or undefined while it should not be asked (the service not running,
 * or not a control plane: no kubelet client certificate).
 */
async function endpointOf(
  rt: ControllerRuntime,
  certDir: string,
  server: string | undefined,
  signal: AbortSignal,
): Promise<KubeEndpoint | undefined> {
  const service = await rt.getOrNull(Service, KUBELET_SERVICE_ID, { signal });
  if (!service?.spec.running) return undefined;
  const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
  const certs = await rt.getOrNull(KubernetesDynamicCerts, KUBERNETES_DYNAMIC_CERTS_ID, { signal });
  const nodename = await rt.getOrNull(Nodename, NODENAME_ID, { signal });
  const ca = root?.spec.issuingCA?.crt;
  const pair = certs?.spec.apiServerKubeletClient;
  if (!ca || !pair?.key || !nodename?.spec.nodename) return undefined;
  return kubeletEndpoint({
    nodename: nodename.spec.nodename,
    cert: pair.crt,
    key: pair.key,
    ca,
    // read each time: the kubelet writes it at its first start, and anew when it has expired
    servingCert: await readKubeletServingCert(certDir, { signal }),
    ...(server ? { server } : {}),
  });
}

/** publish writes each status and removes the ones of pods gone. */
async function publish(
  rt: ControllerRuntime,
  wanted: ReadonlyMap<string, StaticPodStatusSpec>,
  signal: AbortSignal,
): Promise<void> {
  for (const [id, spec] of wanted) await rt.modify(StaticPodStatus, id, () => spec, { signal });
  const have = (await rt.list(StaticPodStatus, { signal })).map((r) => r.metadata.id);
  for (const id of staleStatusIds(have, wanted))
    await destroyIfPresent(rt, StaticPodStatus.pointer(id, K8S_NAMESPACE), { signal });
}

async function teardown(rt: ControllerRuntime, signal: AbortSignal): Promise<void> {
  await publish(rt, new Map(), signal);
}

/** isStaticPod: the kubelet read the pod from a file or a URL, not from the API server. */
export const isStaticPod = (pod: KubeletPod): boolean =>
  STATIC_SOURCES.has(pod.annotations[ANNOTATION_CONFIG_SOURCE] ?? '');

/** staticPodStatuses maps each static pod's `<namespace>/<name>` to its status; other pods are left out. */
export function staticPodStatuses(pods: readonly KubeletPod[]): Map<string, StaticPodStatusSpec> {
  const out = new Map<string, StaticPodStatusSpec>();
  for (const pod of pods)
    if (isStaticPod(pod)) out.set(`${pod.namespace}/${pod.name}`, { podStatus: structuredClone(pod.status) });
  return out;
}

/** staleStatusIds: the statuses present whose pod the kubelet no longer runs. */
export const staleStatusIds = (have: readonly string[], wanted: ReadonlyMap<string, unknown>): string[] =>
  have.filter((id) => !wanted.has(id));
