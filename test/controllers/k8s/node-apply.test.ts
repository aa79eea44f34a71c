// NodeApply: the pure change to a Node (upstream's label, annotation, taint and cordon cases, and the
// owned-* bookkeeping across passes), and the controller on the real runtime before there is a cluster to
// talk to: it keeps checking every retryMs, says why once, and never fails (no error storm).
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  applyCordoned,
  applyKV,
  applyTaints,
  applyToNode,
  readOwned,
  type WantedNode,
} from '../../../controllers/k8s/internal/node-apply/apply.js';
import { kubeletFiles, kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import { nodeApplyController } from '../../../controllers/k8s/node-apply.js';
import { MACHINE_TYPE_ID, MachineType } from '../../../resources/config/index.js';
import { NODENAME_ID, NodeLabelSpec, Nodename } from '../../../resources/k8s/index.js';
import { KUBERNETES_ROOT_ID, KubernetesRoot } from '../../../resources/secrets/index.js';
import { lineLogger, Runtime } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import type { KubeNode } from '../../../src/k8s/index.js';
import { issueCertificate, newCertificateAuthority, profiles } from '../../../src/pki/index.js';

const node = (labels?: Record<string, string>, annotations?: Record<string, string>): KubeNode => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
});
const want = (w: Partial<WantedNode>): WantedNode => ({
  labels: {},
  annotations: {},
  taints: [],
  cordoned: false,
  ...w,
});

describe('applyKV (labels and annotations alike)', () => {
  it.each([
    ['empty', {}, [], {}, {}, []],
    [
      'initial set',
      { hostname: 'foo' },
      [],
      { label1: 'value1', label2: 'value2' },
      { hostname: 'foo', label1: 'value1', label2: 'value2' },
      ['label1', 'label2'],
    ],
    [
      'update owned, remove owned not wanted',
      { hostname: 'foo', label1: 'value1', label2: 'value2' },
      ['label1', 'label2'],
      { label1: 'value3' },
      { hostname: 'foo', label1: 'value3' },
      ['label1'],
    ],
    [
      'ignore not owned, take over one already as wanted',
      { hostname: 'foo', label1: 'value1', label2: 'value2', label3: 'value3' },
      [],
      { label1: 'value3', label2: 'value2' },
      { hostname: 'foo', label1: 'value1', label2: 'value2', label3: 'value3' },
      ['label2'],
    ],
  ] as const)('%s', (_name, input, owned, spec, expected, expectedOwned) => {
    const kv: Record<string, string> = { ...input };
    const set = new Set<string>(owned);
    applyKV(kv, set, spec);
    expect(kv).toEqual(expected);
    expect([...set].sort()).toEqual(expectedOwned);
  });
});

describe('applyTaints', () => {
  const foo = { key: 'foo', value: 'bar', effect: '' };
  it.each([
    ['empty', [], [], [], [], []],
    [
      'initial set',
      [foo],
      [],
      [
        { key: 'taint1', value: 'value1', effect: 'NoSchedule' },
        { key: 'taint2', value: 'value2', effect: '' },
      ],
      [
        foo,
        { key: 'taint1', value: 'value1', effect: 'NoSchedule' },
        { key: 'taint2', value: 'value2', effect: '' },
      ],
      ['taint1', 'taint2'],
    ],
    [
      'update owned, remove owned not wanted',
      [
        foo,
        { key: 'taint1', value: 'value1', effect: 'NoSchedule' },
        { key: 'taint2', value: 'value2', effect: '' },
      ],
      ['taint1', 'taint2'],
      [{ key: 'taint1', value: 'value3', effect: '' }],
      [foo, { key: 'taint1', value: 'value3', effect: '' }],
      ['taint1'],
    ],
    [
      'ignore not owned, take over one already as wanted',
      [
        foo,
        { key: 'taint1', value: 'value1', effect: 'NoSchedule' },
        { key: 'taint2', value: 'value2', effect: '' },
      ],
      [],
      [
        { key: 'taint1', value: 'value1', effect: 'NoSchedule' },
        { key: 'taint2', value: 'value3', effect: '' },
      ],
      [
        foo,
        { key: 'taint1', value: 'value1', effect: 'NoSchedule' },
        { key: 'taint2', value: 'value2', effect: '' },
      ],
      ['taint1'],
    ],
  ] as const)('%s', (_name, input, owned, spec, expected, expectedOwned) => {
    const n = node();
    n.spec = { taints: input.map((t) => ({ ...t })) };
    const set = new Set<string>(owned);
    applyTaints(n, set, spec);
    expect(n.spec.taints ?? []).toEqual(expected);
    expect([...set].sort()).toEqual(expectedOwned);
  });

  it('writes an empty value as the API server stores it: left out', () => {
    const n = node();
    applyTaints(n, new Set(), [{ key: 'k', value: '', effect: 'NoSchedule' }]);
    expect(n.spec?.taints).toEqual([{ key: 'k', effect: 'NoSchedule' }]);
  });
});

describe('applyCordoned', () => {
  const C = 'talos.dev/cordoned';
  it.each([
    ['not cordoned, uncordon', undefined, false, false, false, {}],
    ['not cordoned, cordon', undefined, false, true, true, { [C]: 'true' }],
    ['cordoned by others, cordon', undefined, true, true, true, {}],
    ['cordoned by Talos, cordon', { [C]: 'true' }, true, true, true, { [C]: 'true' }],
    ['cordoned by Talos, uncordon', { [C]: 'true' }, true, false, false, {}],
    ['cordoned by others, uncordon: left alone', { foo: 'bar' }, true, false, true, { foo: 'bar' }],
  ] as const)('%s', (_name, annotations, unschedulable, cordon, expected, expectedAnnotations) => {
    const n = node(undefined, annotations ? { ...annotations } : undefined);
    n.spec = { unschedulable };
    applyCordoned(n, cordon);
    expect(n.spec.unschedulable).toBe(expected);
    expect(n.metadata.annotations).toEqual(expectedAnnotations);
  });
});

describe('applyToNode', () => {
  it('records what it set in the owned-* annotations, and on a later pass removes only those', () => {
    const n = node({ 'kubernetes.io/hostname': 'n1', zone: 'mine' }, { 'node.alpha.kubernetes.io/ttl': '0' });
    n.spec = { taints: [{ key: 'theirs', effect: 'NoExecute' }] };
    const first = applyToNode(
      n,
      want({
        labels: { zone: 'a', role: 'x' },
        annotations: { note: 'hi' },
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      }),
    );
    expect(first).toEqual({ changed: true, skipped: ['label:zone'] });
    expect(n.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'n1', zone: 'mine', role: 'x' });
    expect(n.metadata.annotations).toEqual({
      'node.alpha.kubernetes.io/ttl': '0',
      note: 'hi',
      'talos.dev/owned-labels': '["role"]',
      'talos.dev/owned-annotations': '["note"]',
      'talos.dev/owned-taints': '["dedicated"]',
    });
    expect(n.spec.taints).toEqual([
      { key: 'theirs', effect: 'NoExecute' },
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    ]);

    // the same specs again: nothing to write
    const again = applyToNode(
      n,
      want({
        labels: { zone: 'a', role: 'x' },
        annotations: { note: 'hi' },
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      }),
    );
    expect(again.changed).toBe(false);

    // everything dropped from the config: Talos' keys go, with their bookkeeping; the others stay
    expect(applyToNode(n, want({})).changed).toBe(true);
    expect(n.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'n1', zone: 'mine' });
    expect(n.metadata.annotations).toEqual({ 'node.alpha.kubernetes.io/ttl': '0' });
    expect(n.spec.taints).toEqual([{ key: 'theirs', effect: 'NoExecute' }]);
  });

  it('reads upstream’s bookkeeping, and refuses one that is not a JSON list', () => {
    expect([...readOwned({ 'talos.dev/owned-labels': '["a","b"]' }, 'talos.dev/owned-labels')]).toEqual([
      'a',
      'b',
    ]);
    expect(readOwned({ 'talos.dev/owned-labels': 'null' }, 'talos.dev/owned-labels').size).toBe(0);
    expect(() => applyToNode(node({}, { 'talos.dev/owned-taints': '{' }), want({}))).toThrow(
      /node annotation talos.dev\/owned-taints/,
    );
    expect(() => readOwned({ x: '[1]' }, 'x')).toThrow('node annotation x: not a JSON list of strings');
  });
});

/** refusingServer accepts TCP connections and drops them at once: an API server that is not up yet */
async function refusingServer(): Promise<{
  server: Server;
  port: number;
  dialled: (n: number) => Promise<void>;
}> {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((s) => {
    count++;
    s.destroy();
    for (const w of waiters.splice(0))
      if (count >= w.n) w.resolve();
      else waiters.push(w);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    server,
    port,
    dialled: (n) => new Promise<void>((resolve) => (count >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

function runtimeWithLog(controllers: Parameters<Runtime['register']>[0][]) {
  type Line = { level: string; msg: string; reason?: string };
  const lines: Line[] = [];
  const waiters: { pred: (l: Line) => boolean; resolve: () => void }[] = [];
  const state = wrapCore(newInmemState());
  const rt = new Runtime(state, {
    logger: lineLogger((text) => {
      const l = JSON.parse(text) as Line;
      lines.push(l);
      for (const w of waiters.splice(0))
        if (w.pred(l)) w.resolve();
        else waiters.push(w);
    }, 'debug'),
    restartBackoff: { initial: 1, multiplier: 1.5, randomization: 0.5, max: 10 },
  });
  for (const c of controllers) rt.register(c);
  const ac = new AbortController();
  const done = rt.run({ signal: ac.signal });
  return {
    state,
    lines,
    /** logged resolves once a line (already written or to come) matches */
    logged: (pred: (l: Line) => boolean) =>
      new Promise<void>((resolve) => (lines.some(pred) ? resolve() : waiters.push({ pred, resolve }))),
    /** failed rejects with the first error logged: a check that would otherwise wait out the test */
    failed: () =>
      new Promise<never>((_, reject) => {
        const error = (l: Line) => l.level === 'error';
        void new Promise<void>((resolve) =>
          lines.some(error) ? resolve() : waiters.push({ pred: error, resolve }),
        ).then(() => reject(new Error(`logged: ${JSON.stringify(lines.find(error))}`)));
      }),
    stop: async () => {
      ac.abort();
      await done;
    },
  };
}

describe('k8s.NodeApplyController before the cluster is there', () => {
  it('a control plane: checks its API server every retryMs, says why once, and never fails', async () => {
    const api = await refusingServer();
    onTestFinished(() => void api.server.close());
    const env = runtimeWithLog([nodeApplyController({ retryMs: 20 })]);
    onTestFinished(env.stop);
    const ca = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
    await env.state.create(MachineType.new('config', MACHINE_TYPE_ID, { type: 'controlplane' }));
    await env.state.create(
      Nodename.new('k8s', NODENAME_ID, { nodename: 'n1', hostnameVersion: '1', skipNodeRegistration: false }),
    );
    await env.state.create(NodeLabelSpec.new('k8s', 'zone', { key: 'zone', value: 'a' }));
    await env.state.create(
      KubernetesRoot.new('secrets', KUBERNETES_ROOT_ID, {
        ...KubernetesRoot.codec.empty(),
        localEndpoint: `https://127.0.0.1:${api.port}`,
        issuingCA: ca,
      }),
    );
    await Promise.race([api.dialled(5), env.failed()]);
    const waiting = env.lines.filter((l) => l.msg === 'node metadata not applied yet');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.reason).toMatch(/^the API server does not answer: GET \/api\/v1\/nodes\/n1: /);
    expect(env.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a worker: waits for the kubelet’s kubeconfig, then dials the server it names with the files it names', async () => {
    const api = await refusingServer();
    onTestFinished(() => void api.server.close());
    const dir = mkdtempSync(join(tmpdir(), 'keel-node-apply-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const paths = kubeletPathsUnder(dir, '/nonexistent.sock');
    const env = runtimeWithLog([nodeApplyController({ kubelet: paths, retryMs: 20 })]);
    onTestFinished(env.stop);
    await env.state.create(MachineType.new('config', MACHINE_TYPE_ID, { type: 'worker' }));
    await env.state.create(
      Nodename.new('k8s', NODENAME_ID, { nodename: 'w1', hostnameVersion: '1', skipNodeRegistration: false }),
    );

    await env.logged((l) => l.reason?.startsWith('no kubelet kubeconfig') === true);
    // the kubelet's own layout: the CA embedded, certificate and key in one file named twice
    const ca = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
    const client = await issueCertificate(ca, profiles.kubeconfigClient('system:node:w1', 'system:nodes'));
    mkdirSync(join(paths.rootDir, 'pki'), { recursive: true });
    writeFileSync(join(paths.rootDir, 'pki', 'kubelet-client-current.pem'), client.crt + client.key);
    const files = kubeletFiles(paths);
    mkdirSync(paths.etcKubernetes, { recursive: true });
    const pem = join(paths.rootDir, 'pki', 'kubelet-client-current.pem');
    writeFileSync(
      files.kubeconfig,
      `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${Buffer.from(ca.crt).toString('base64')}
    server: https://127.0.0.1:${api.port}
  name: default-cluster
contexts:
- context:
    cluster: default-cluster
    namespace: default
    user: default-auth
  name: default-context
current-context: default-context
kind: Config
users:
- name: default-auth
  user:
    client-certificate: ${pem}
    client-key: ${pem}
`,
    );
    await Promise.race([api.dialled(3), env.failed()]);
    const reasons = env.lines.filter((l) => l.msg === 'node metadata not applied yet').map((l) => l.reason);
    expect(reasons[0]).toBe(`no kubelet kubeconfig at ${files.kubeconfig} yet`);
    expect(reasons[1]).toMatch(/^the API server does not answer: GET \/api\/v1\/nodes\/w1: /);
    expect(env.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
