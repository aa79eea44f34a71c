// k8s.NodeApplyController: puts the NodeLabelSpecs, NodeAnnotationSpecs, NodeTaintSpecs and NodeCordonedSpec
// on the node's Kubernetes Node, as upstream's: read, change (internal/node-apply/apply.ts), update, with
// the keys Talos set recorded in the Node's talos.dev/owned-* annotations so that a key dropped from the
// config is removed while keys others set stay. A control plane writes with a short-lived admin
// certificate through its own API server, a worker with the kubelet's kubeconfig
// (internal/node-apply/credentials.ts). Until the API server answers and the kubelet has registered the
// Node it checks again every retryMs, saying why once; then every resyncMs, which stands in for upstream's
// wake-ups on the Node's own changes (Keel has no NodeStatus yet), so a Node the kubelet re-creates or
// someone edits gets the specs back.
import { setTimeout as sleep } from 'node:timers/promises';
import { MACHINE_TYPE_ID, MachineType } from '../../resources/config/machine-type.js';
import {
  NODENAME_ID,
  NodeAnnotationSpec,
  NodeCordonedSpec,
  NodeLabelSpec,
  Nodename,
  NodeTaintSpec,
} from '../../resources/k8s/index.js';
import { KUBERNETES_ROOT_ID, KubernetesRoot } from '../../resources/secrets/index.js';
import { type ControllerRuntime, defineController, input } from '../../src/cosi/controller/index.js';
import {
  getNode,
  isConflict,
  isForbidden,
  isNotFound,
  isUnreachable,
  KubeClient,
  type KubeEndpoint,
  KubeError,
  readKubeconfigFile,
  updateNode,
} from '../../src/k8s/index.js';
import { applyToNode, type WantedNode } from './internal/node-apply/apply.js';
import { temporaryAdmin } from './internal/node-apply/credentials.js';
import { type KubeletPaths, kubeletFiles, NODE_KUBELET_PATHS } from './kubelet-paths.js';

export const NODE_APPLY_CONTROLLER = 'k8s.NodeApplyController';

export interface NodeApplyOptions {
  /** where the kubelet's kubeconfig is (a worker's credentials); default a node's */
  readonly kubelet?: KubeletPaths;
  /** the wait before checking again while the API server, the Node or the kubeconfig is not there; 10 s */
  readonly retryMs?: number;
  /** the wait before applying again once applied; 60 s */
  readonly resyncMs?: number;
}

/** upstream retries a conflicting update for 10 s, every 100 ms */
const CONFLICT_RETRY_FOR_MS = 10_000;
const CONFLICT_RETRY_EVERY_MS = 100;
/** a minted admin certificate is reused until this long before it expires */
const ADMIN_RENEW_BEFORE_MS = 5 * 60_000;
const REQUEST_TIMEOUT_MS = 15_000;

/** a pass ends idle (an input event brings the next), waiting (for something no input announces), or applied */
type Outcome = { kind: 'idle' } | { kind: 'waiting'; why: string } | { kind: 'applied' };

export function nodeApplyController(opts: NodeApplyOptions = {}) {
  const kubeconfigPath = kubeletFiles(opts.kubelet ?? NODE_KUBELET_PATHS).kubeconfig;
  const retryMs = opts.retryMs ?? 10_000;
  const resyncMs = opts.resyncMs ?? 60_000;
  return defineController({
    name: NODE_APPLY_CONTROLLER,
    inputs: [
      input(NodeAnnotationSpec),
      input(NodeLabelSpec),
      input(NodeTaintSpec),
      input(NodeCordonedSpec),
      input(KubernetesRoot, { id: KUBERNETES_ROOT_ID }),
      input(Nodename, { id: NODENAME_ID }),
      input(MachineType, { id: MACHINE_TYPE_ID }),
    ],
    outputs: [],
    async run(rt, { signal, logger }) {
      let timer: NodeJS.Timeout | undefined;
      let waitingFor = '';
      let admin: { of: string; endpoint: KubeEndpoint; renewAt: number } | undefined;

      /** credentials: the control plane's (minted once per CA and endpoint, renewed), or the kubelet's */
      const credentials = async (): Promise<KubeEndpoint | Outcome> => {
        const type = (await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal }))?.spec.type ?? 'unknown';
        if (type === 'unknown') return { kind: 'idle' };
        if (type === 'worker') {
          const kubelet = await readKubeconfigFile(kubeconfigPath, { signal });
          return kubelet ?? { kind: 'waiting', why: `no kubelet kubeconfig at ${kubeconfigPath} yet` };
        }
        const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
        if (!root) return { kind: 'idle' };
        const of = `${root.spec.localEndpoint}\n${root.spec.issuingCA?.crt}`;
        if (admin?.of !== of || Date.now() >= admin.renewAt) {
          const minted = await temporaryAdmin(root.spec, { signal });
          if (!minted) return { kind: 'idle' };
          admin = { of, endpoint: minted.endpoint, renewAt: minted.notAfter - ADMIN_RENEW_BEFORE_MS };
        }
        return admin.endpoint;
      };

      const pass = async (): Promise<Outcome> => {
        const nodename = await rt.getOrNull(Nodename, NODENAME_ID, { signal });
        if (!nodename || nodename.spec.skipNodeRegistration) return { kind: 'idle' };
        const endpoint = await credentials();
        if ('kind' in endpoint) return endpoint;
        const want = await wanted(rt, signal);
        const client = new KubeClient(endpoint, { timeoutMs: REQUEST_TIMEOUT_MS });
        try {
          const skipped = await sync(client, nodename.spec.nodename, want, signal);
          if (skipped.length > 0) logger.debug('left alone, set by others', { keys: skipped });
          return { kind: 'applied' };
        } catch (e) {
          const why = notYet(e, nodename.spec.nodename);
          if (why === undefined) throw new Error(`applying node ${nodename.spec.nodename}`, { cause: e });
          return { kind: 'waiting', why };
        } finally {
          client.close();
        }
      };

      try {
        for await (const _ of rt.events(signal)) {
          clearTimeout(timer);
          timer = undefined;
          const outcome = await pass();
          if (outcome.kind === 'waiting' && outcome.why !== waitingFor)
            logger.info('node metadata not applied yet', { reason: outcome.why });
          if (outcome.kind === 'applied' && waitingFor !== '') logger.info('node metadata applied');
          waitingFor = outcome.kind === 'waiting' ? outcome.why : '';
          if (outcome.kind !== 'idle')
            timer = setTimeout(() => rt.queueReconcile(), outcome.kind === 'waiting' ? retryMs : resyncMs);
          rt.resetBackoff();
        }
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

/** wanted gathers the specs. */
async function wanted(rt: ControllerRuntime, signal: AbortSignal): Promise<WantedNode> {
  const kv = (rs: { spec: { key: string; value: string } }[]) =>
    Object.fromEntries(rs.map((r) => [r.spec.key, r.spec.value]));
  return {
    labels: kv(await rt.list(NodeLabelSpec, { signal })),
    annotations: kv(await rt.list(NodeAnnotationSpec, { signal })),
    taints: (await rt.list(NodeTaintSpec, { signal })).map((r) => ({ ...r.spec })),
    cordoned: (await rt.list(NodeCordonedSpec, { signal })).length > 0,
  };
}

/** sync reads, changes and writes the Node, reading again on a conflict; it returns the keys left alone. */
async function sync(
  client: KubeClient,
  name: string,
  want: WantedNode,
  signal: AbortSignal,
): Promise<readonly string[]> {
  const deadline = Date.now() + CONFLICT_RETRY_FOR_MS;
  for (;;) {
    const node = await getNode(client, name, { signal });
    const { changed, skipped } = applyToNode(node, want);
    try {
      if (changed) await updateNode(client, node, { signal });
      return skipped;
    } catch (e) {
      if (!isConflict(e) || Date.now() >= deadline) throw e;
    }
    await sleep(CONFLICT_RETRY_EVERY_MS, undefined, { signal });
  }
}

/** notYet names what a failure waits for, or undefined when it is a real one (left to the runtime's backoff). */
function notYet(e: unknown, name: string): string | undefined {
  if (isNotFound(e)) return `node ${name} is not registered yet`;
  if (isUnreachable(e)) return `the API server does not answer: ${(e as Error).message}`;
  // the kubelet's credentials before its Node exists, or a label NodeRestriction refuses it
  if (isForbidden(e)) return (e as Error).message;
  if (isConflict(e)) return `node ${name} kept changing under the update`;
  // an API server still starting (503) or shedding load (429)
  if (e instanceof KubeError && e.code === 'status' && (e.status === 429 || (e.status ?? 0) >= 500))
    return (e as Error).message;
  return undefined;
}
