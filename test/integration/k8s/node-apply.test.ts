// NodeApplyController against a real etcd and a real kube-apiserver (the Kubernetes component's binary),
// with the certificates and files Keel's secrets and render controllers make from a control plane config,
// as manifest-apply.test.ts runs them. A control plane's Node gets its role label and taint and the
// configured labels and annotations through a minted admin certificate; dropping them from the config
// removes only Talos' own, while what others set stays. A worker's Node is changed with the kubelet's own
// credentials, so the Node authorizer and NodeRestriction judge it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MachineTypeController } from '../../../controllers/config/index.js';
import {
  kubeletFiles,
  kubeletPathsUnder,
  NodeAnnotationSpecController,
  NodeCordonedSpecController,
  NodeLabelSpecController,
  NodenameController,
  NodeTaintSpecController,
  nodeApplyController,
  POD_AUDIT_LOG_DIR,
} from '../../../controllers/k8s/index.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { KUBERNETES_ROOT_ID, KubernetesRoot } from '../../../resources/secrets/index.js';
import { type Config, generateConfigs, mintSecrets } from '../../../src/config/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { getNode, KubeClient, type KubeNode, type Taint } from '../../../src/k8s/index.js';
import { issueCertificate, profiles } from '../../../src/pki/index.js';
import {
  hostname,
  machineConfig,
  nodeAddresses,
  type RuntimeEnv,
  startRuntime,
} from '../../controllers/secrets/env.js';
import { freePort } from '../../machined/node/harness.js';
import { controlPlaneControllers, type RunningControlPlane, startControlPlane } from './apiserver.js';

const ROLE = 'node-role.kubernetes.io/control-plane';
const EXCLUDE_LB = 'node.kubernetes.io/exclude-from-external-load-balancers';
const NOT_READY = 'node.kubernetes.io/not-ready';
/** a fresh bound for each wait */
const wait = () => ({ signal: AbortSignal.timeout(90_000) });
/** short enough that the Node created after the controller started is found quickly */
const RETRY_MS = 200;
/** short enough that a label someone removed comes back within the test */
const RESYNC_MS = 1000;

let work: string;
let port: number;
let generated: { controlplane: Config; worker: Config };
let env: RuntimeEnv | undefined;
let controlPlane: RunningControlPlane | undefined;
let admin: KubeClient | undefined;

/** the control plane's config: its API server on a free port, KubePrism's local endpoint being that port */
const controlPlaneConfig = (extra = '') =>
  applyPatches(generated.controlplane, [
    loadPatch(`machine:
  features:
    kubePrism: { enabled: true, port: ${port} }
cluster:
  controlPlane: { localAPIServerPort: ${port} }
`),
    ...(extra ? [loadPatch(extra)] : []),
  ]);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'keel-node-apply-'));
  port = await freePort();
  generated = generateConfigs({
    clusterName: 'demo',
    endpoint: `https://127.0.0.1:${port}`,
    secrets: await mintSecrets(),
  });
  const root = join(work, 'root');
  env = startRuntime([
    ...controlPlaneControllers(root),
    NodenameController,
    NodeLabelSpecController,
    NodeTaintSpecController,
    NodeAnnotationSpecController,
    NodeCordonedSpecController,
    nodeApplyController({ retryMs: RETRY_MS, resyncMs: RESYNC_MS }),
  ]);
  const { state } = env;
  await state.create(
    machineConfig(
      controlPlaneConfig(`machine:
  nodeLabels: { example.com/zone: a, example.com/shared: mine }
  nodeAnnotations: { example.com/note: hello }
`),
    ),
  );
  await state.create(hostname('cp1'));
  await state.create(nodeAddresses('10.5.0.2/24'));

  controlPlane = await startControlPlane(state, root);
  admin = KubeClient.fromKubeconfig(controlPlane.kubeconfig);
}, 240_000);

afterAll(async () => {
  admin?.close();
  await env?.stop();
  await controlPlane?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** createNode registers a Node as the kubelet would, with what others set on it already */
const createNode = (
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string>,
  taints: Taint[] = [],
) =>
  admin!.create('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels, annotations },
    spec: taints.length > 0 ? { taints } : {},
  });

/** eventually re-reads the Node until the check passes or the wait runs out */
async function eventually(name: string, check: (n: KubeNode) => void): Promise<KubeNode> {
  const { signal } = wait();
  for (;;) {
    let node: KubeNode | undefined;
    try {
      node = await getNode(admin!, name);
      check(node);
      return node;
    } catch (e) {
      if (signal.aborted) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** updatedBy: the users the API server's audit log says updated the Node successfully */
function updatedBy(name: string): string[] {
  const log = readFileSync(join(work, 'root', POD_AUDIT_LOG_DIR, 'kube-apiserver.log'), 'utf8');
  type Event = {
    stage?: string;
    verb?: string;
    objectRef?: { resource?: string; name?: string };
    responseStatus?: { code?: number };
    user?: { username?: string };
  };
  return log
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Event)
    .filter(
      (e) =>
        e.stage === 'ResponseComplete' &&
        e.verb === 'update' &&
        e.objectRef?.resource === 'nodes' &&
        e.objectRef.name === name &&
        e.responseStatus?.code === 200,
    )
    .map((e) => e.user?.username ?? '');
}

const owned = (n: KubeNode, what: 'labels' | 'annotations' | 'taints') =>
  JSON.parse(n.metadata.annotations?.[`talos.dev/owned-${what}`] ?? '[]') as string[];

describe('NodeApplyController on a control plane', () => {
  it('waits for the Node, then applies the role label and taint and the configured labels and annotations', async () => {
    // the kubelet has not registered yet: the controller keeps checking, calmly
    await createNode(
      'cp1',
      { 'kubernetes.io/hostname': 'cp1', 'example.com/theirs': 'keep', 'example.com/shared': 'theirs' },
      { 'example.com/their-note': 'keep' },
      [{ key: 'example.com/their-taint', effect: 'NoExecute' }],
    );
    const node = await eventually('cp1', (n) => {
      expect(n.metadata.labels).toMatchObject({ [ROLE]: '', 'example.com/zone': 'a' });
    });
    expect(node.metadata.labels).toEqual({
      'kubernetes.io/hostname': 'cp1',
      'example.com/theirs': 'keep',
      // someone else's value: left alone, and not Talos'
      'example.com/shared': 'theirs',
      'example.com/zone': 'a',
      [EXCLUDE_LB]: '',
      [ROLE]: '',
    });
    expect(owned(node, 'labels')).toEqual(['example.com/zone', EXCLUDE_LB, ROLE].sort());
    expect(node.metadata.annotations).toMatchObject({
      'example.com/their-note': 'keep',
      'example.com/note': 'hello',
    });
    expect(owned(node, 'annotations')).toEqual(['example.com/note']);
    // the API server's admission added its not-ready taint on creation: someone else's too
    expect(node.spec?.taints).toEqual([
      { key: 'example.com/their-taint', effect: 'NoExecute' },
      { key: NOT_READY, effect: 'NoSchedule' },
      { key: ROLE, effect: 'NoSchedule' },
    ]);
    expect(owned(node, 'taints')).toEqual([ROLE]);
    // with upstream's temporary admin certificate (CN admin), not the kubelet's or Talos' own kubeconfig
    expect(new Set(updatedBy('cp1'))).toEqual(new Set(['admin']));
  }, 120_000);

  it('removes only its own keys when the config drops them, and the taint once scheduling is allowed', async () => {
    await env!.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(controlPlaneConfig('cluster:\n  allowSchedulingOnControlPlanes: true\n')).spec;
    });
    const node = await eventually('cp1', (n) => {
      expect(n.metadata.labels?.['example.com/zone']).toBeUndefined();
      expect(n.spec?.taints?.map((t) => t.key)).not.toContain(ROLE);
    });
    expect(node.metadata.labels).toEqual({
      'kubernetes.io/hostname': 'cp1',
      'example.com/theirs': 'keep',
      'example.com/shared': 'theirs',
      [EXCLUDE_LB]: '',
      [ROLE]: '',
    });
    expect(node.metadata.annotations?.['example.com/note']).toBeUndefined();
    expect(node.metadata.annotations?.['example.com/their-note']).toBe('keep');
    expect(node.metadata.annotations?.['talos.dev/owned-annotations']).toBeUndefined();
    expect(node.metadata.annotations?.['talos.dev/owned-taints']).toBeUndefined();
    expect(owned(node, 'labels')).toEqual([EXCLUDE_LB, ROLE].sort());
    expect(node.spec?.taints).toEqual([
      { key: 'example.com/their-taint', effect: 'NoExecute' },
      { key: NOT_READY, effect: 'NoSchedule' },
    ]);
  }, 120_000);

  it('puts back a label of its own that someone removed (the resync)', async () => {
    const node = await getNode(admin!, 'cp1');
    delete node.metadata.labels![EXCLUDE_LB];
    await admin!.update('/api/v1/nodes/cp1', node);
    await eventually('cp1', (n) => expect(n.metadata.labels?.[EXCLUDE_LB]).toBe(''));
  }, 120_000);
});

describe('NodeApplyController on a worker', () => {
  it('changes its own Node with the kubelet’s credentials, and removes a dropped label', async () => {
    // the kubelet's files as it leaves them after TLS bootstrap, its certificate from the cluster CA
    const k8sRoot = await env!.state.get(KubernetesRoot.pointer(KUBERNETES_ROOT_ID));
    const ca = (k8sRoot.spec as { issuingCA: { crt: string; key: string } }).issuingCA;
    const client = await issueCertificate(ca, profiles.kubeconfigClient('system:node:w1', 'system:nodes'));
    const paths = kubeletPathsUnder(join(work, 'w1'), '/nonexistent.sock');
    const pem = join(paths.rootDir, 'pki', 'kubelet-client-current.pem');
    mkdirSync(join(paths.rootDir, 'pki'), { recursive: true });
    mkdirSync(paths.etcKubernetes, { recursive: true });
    writeFileSync(pem, client.crt + client.key);
    writeFileSync(
      kubeletFiles(paths).kubeconfig,
      `apiVersion: v1
kind: Config
clusters:
- name: default-cluster
  cluster:
    certificate-authority-data: ${Buffer.from(ca.crt).toString('base64')}
    server: https://127.0.0.1:${port}
contexts:
- name: default-context
  context: { cluster: default-cluster, user: default-auth, namespace: default }
current-context: default-context
users:
- name: default-auth
  user:
    client-certificate: ${pem}
    client-key: ${pem}
`,
    );
    const workerConfig = (labels: string) =>
      applyPatches(generated.worker, [
        loadPatch(`machine:\n  nodeLabels: { ${labels} }\n  nodeAnnotations: { example.com/note: w }\n`),
      ]);
    const worker = startRuntime([
      MachineTypeController,
      NodenameController,
      NodeLabelSpecController,
      NodeTaintSpecController,
      NodeAnnotationSpecController,
      nodeApplyController({ kubelet: paths, retryMs: RETRY_MS }),
    ]);
    onTestFinished(worker.stop);
    await worker.state.create(hostname('w1'));
    await worker.state.create(machineConfig(workerConfig('example.com/pool: blue, example.com/tier: gold')));
    await createNode('w1', { 'kubernetes.io/hostname': 'w1', 'example.com/theirs': 'keep' }, {});

    const node = await eventually('w1', (n) => expect(n.metadata.labels?.['example.com/pool']).toBe('blue'));
    expect(node.metadata.labels).toEqual({
      'kubernetes.io/hostname': 'w1',
      'example.com/theirs': 'keep',
      'example.com/pool': 'blue',
      'example.com/tier': 'gold',
    });
    expect(node.metadata.annotations?.['example.com/note']).toBe('w');
    expect(owned(node, 'labels')).toEqual(['example.com/pool', 'example.com/tier']);
    // written by the node itself, so the Node authorizer and NodeRestriction admitted it
    expect(new Set(updatedBy('w1'))).toEqual(new Set(['system:node:w1']));

    await worker.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(workerConfig('example.com/pool: blue')).spec;
    });
    const after = await eventually('w1', (n) =>
      expect(n.metadata.labels?.['example.com/tier']).toBeUndefined(),
    );
    expect(after.metadata.labels).toEqual({
      'kubernetes.io/hostname': 'w1',
      'example.com/theirs': 'keep',
      'example.com/pool': 'blue',
    });
  }, 120_000);
});
