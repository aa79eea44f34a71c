// k8s.KubeletStaticPodController: which of the kubelet's pods become StaticPodStatuses (pure), and on the
// in-memory runtime against a real HTTPS server standing in for the kubelet's API, with real X.509: the
// cluster CA, the API server's kubelet client certificate as the secrets controller mints it, and a
// self-signed serving certificate for the node name in the kubelet's pki directory, as the kubelet makes.
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { describe, expect, it, onTestFinished } from 'vitest';
import { kubeletFiles, kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import {
  isStaticPod,
  kubeletStaticPodController,
  staleStatusIds,
  staticPodStatuses,
} from '../../../controllers/k8s/kubelet-static-pod.js';
import { kubernetesDynamicCerts } from '../../../controllers/secrets/kubernetes-dynamic-certs.js';
import { K8S_NAMESPACE, NODENAME_ID, Nodename, StaticPodStatus } from '../../../resources/k8s/index.js';
import {
  KUBERNETES_DYNAMIC_CERTS_ID,
  KUBERNETES_ROOT_ID,
  KubernetesDynamicCerts,
  KubernetesRoot,
  type KubernetesRootSpec,
} from '../../../resources/secrets/index.js';
import { Service, V1ALPHA1_NAMESPACE } from '../../../resources/v1alpha1/index.js';
import { lineLogger, Runtime } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import {
  assertLength,
  assertNoResource,
  assertResource,
} from '../../../src/cosi/testing/assert-resources.js';
import type { KubeletPod } from '../../../src/k8s/index.js';
import { type CertificateAndKey, issueCertificate, newCertificateAuthority } from '../../../src/pki/index.js';

const pod = (namespace: string, name: string, source: string | undefined, phase = 'Running'): KubeletPod => ({
  name,
  namespace,
  annotations: source === undefined ? {} : { 'kubernetes.io/config.source': source },
  status: { phase, conditions: [{ type: 'Ready', status: 'True' }] },
});

describe('staticPodStatuses', () => {
  it('keeps the pods the kubelet read from a file or a URL, by namespace/name', () => {
    const pods = [
      pod('kube-system', 'kube-apiserver-cp-1', 'http'),
      pod('kube-system', 'etcd-cp-1', 'file', 'Pending'),
      pod('kube-system', 'kube-proxy-x7', 'api'),
      pod('default', 'orphan', undefined),
    ];
    expect(pods.map(isStaticPod)).toEqual([true, true, false, false]);
    const out = staticPodStatuses(pods);
    expect([...out.keys()]).toEqual(['kube-system/kube-apiserver-cp-1', 'kube-system/etcd-cp-1']);
    expect(out.get('kube-system/etcd-cp-1')).toEqual({
      podStatus: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    // a copy: the spec never shares the kubelet's objects
    expect(out.get('kube-system/etcd-cp-1')!.podStatus).not.toBe(pods[1]!.status);
  });

  it('names the statuses whose pods are gone', () => {
    const wanted = staticPodStatuses([pod('kube-system', 'a', 'file')]);
    expect(staleStatusIds(['kube-system/a', 'kube-system/b', 'x/y'], wanted)).toEqual([
      'kube-system/b',
      'x/y',
    ]);
    expect(staleStatusIds([], wanted)).toEqual([]);
  });
});

const NODENAME = 'cp-1';

/** a kubelet's API: GET /pods/ only, for clients whose certificate the cluster CA signed */
interface FakeKubelet {
  readonly url: string;
  /** the list's items; null as a kubelet running none answers */
  pods: unknown[] | null;
  /** the HTTP status to answer with; 200 serves the pods */
  status: number;
  /** the client certificates' common names, one per request */
  readonly clients: string[];
  close(): Promise<void>;
}

async function fakeKubelet(serving: CertificateAndKey, clusterCA: string): Promise<FakeKubelet> {
  const server: Server = createServer(
    { cert: serving.crt, key: serving.key, ca: clusterCA, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      fake.clients.push(peer.subject.CN as string);
      if (req.url !== '/pods/') {
        res.writeHead(404).end('404 page not found\n');
        return;
      }
      if (fake.status !== 200) {
        res.writeHead(fake.status).end('Service Unavailable\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: fake.pods }));
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const fake: FakeKubelet = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pods: [],
    status: 200,
    clients: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

const kubePod = (name: string, source: string, phase: string) => ({
  metadata: { name, namespace: 'kube-system', annotations: { 'kubernetes.io/config.source': source } },
  spec: { containers: [{ name }] },
  status: { phase, conditions: [{ type: 'Ready', status: phase === 'Running' ? 'True' : 'False' }] },
});

function runtimeWithLog(controllers: Parameters<Runtime['register']>[0][]) {
  const lines: { level: string; msg: string; reason?: string; controller?: string }[] = [];
  const state = wrapCore(newInmemState());
  const rt = new Runtime(state, {
    logger: lineLogger((text) => lines.push(JSON.parse(text)), 'debug'),
    restartBackoff: { initial: 1, multiplier: 1.5, randomization: 0.5, max: 10 },
  });
  for (const c of controllers) rt.register(c);
  const ac = new AbortController();
  const done = rt.run({ signal: ac.signal });
  return {
    state,
    lines,
    async stop() {
      ac.abort();
      await done;
    },
  };
}

describe('k8s.KubeletStaticPodController', () => {
  it('asks the kubelet as the API server does, keeps a status per static pod, and removes them', async ({
    signal,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-static-pod-status-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // the cluster's CAs and the kubelet client certificate, as the secrets controllers mint them
    const issuingCA = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
    const aggregatorCA = await newCertificateAuthority({ keyType: 'ecdsa-p256', commonName: 'front-proxy' });
    const root: KubernetesRootSpec = { ...KubernetesRoot.codec.empty(), issuingCA, aggregatorCA };
    const dynamic = await kubernetesDynamicCerts(
      root,
      { ips: ['127.0.0.1'], dnsNames: ['localhost'], fqdn: '' },
      undefined,
      new Date(),
    );
    // the kubelet's own CA and serving certificate for its node name, in its --cert-dir as it writes them
    const kubeletCA = await newCertificateAuthority({
      keyType: 'ecdsa-p256',
      commonName: `${NODENAME}-ca@1`,
    });
    const serving = await issueCertificate(kubeletCA, { commonName: `${NODENAME}@1`, dnsNames: [NODENAME] });
    const paths = kubeletPathsUnder(dir, join(dir, 'containerd.sock'));
    const certDir = kubeletFiles(paths).pkiDir;
    mkdirSync(certDir, { recursive: true });
    const kubelet = await fakeKubelet(serving, issuingCA.crt);
    onTestFinished(kubelet.close);
    kubelet.pods = [
      kubePod('kube-apiserver-cp-1', 'http', 'Running'),
      kubePod('kube-scheduler-cp-1', 'file', 'Pending'),
      kubePod('coredns-abc', 'api', 'Running'),
    ];

    const env = runtimeWithLog([
      kubeletStaticPodController({ kubelet: paths, refreshMs: 50, server: kubelet.url }),
    ]);
    onTestFinished(env.stop);
    const running = (r: boolean) =>
      Service.new(V1ALPHA1_NAMESPACE, 'kubelet', { running: r, healthy: r, unknown: false });
    await env.state.create(running(true));
    await env.state.create(
      Nodename.new(K8S_NAMESPACE, NODENAME_ID, { ...Nodename.codec.empty(), nodename: NODENAME }),
    );
    await env.state.create(KubernetesRoot.new('secrets', KUBERNETES_ROOT_ID, root));
    // not a control plane yet (no kubelet client certificate): the kubelet is not asked
    await new Promise((r) => setTimeout(r, 200));
    expect(kubelet.clients).toEqual([]);
    await env.state.create(KubernetesDynamicCerts.new('secrets', KUBERNETES_DYNAMIC_CERTS_ID, dynamic));

    // the serving certificate is not in the kubelet's pki dir yet: TLS fails, said once
    await expect.poll(() => env.lines.filter((l) => l.msg === 'kubelet pods not read').length).toBe(1);
    expect(kubelet.clients).toEqual([]);
    // written: trusted from the next tick on
    writeFileSync(join(certDir, 'kubelet.crt'), serving.crt + kubeletCA.crt);
    await assertResource(
      env.state,
      StaticPodStatus,
      'kube-system/kube-apiserver-cp-1',
      (r) => expect(r.spec.podStatus.phase).toBe('Running'),
      { signal },
    );
    await assertResource(
      env.state,
      StaticPodStatus,
      'kube-system/kube-scheduler-cp-1',
      (r) =>
        expect(r.spec.podStatus).toEqual({
          phase: 'Pending',
          conditions: [{ type: 'Ready', status: 'False' }],
        }),
      { signal },
    );
    await assertLength(env.state, StaticPodStatus, 2, { signal });
    expect(new Set(kubelet.clients)).toEqual(new Set(['apiserver-kubelet-client']));
    expect(env.lines.filter((l) => l.msg === 'kubelet pods read again')).toHaveLength(1);

    // a changed status is written; a pod gone loses its status
    kubelet.pods = [kubePod('kube-scheduler-cp-1', 'file', 'Running')];
    await assertResource(
      env.state,
      StaticPodStatus,
      'kube-system/kube-scheduler-cp-1',
      (r) => expect(r.spec.podStatus.phase).toBe('Running'),
      { signal },
    );
    await assertNoResource(env.state, StaticPodStatus, 'kube-system/kube-apiserver-cp-1', { signal });

    // a kubelet that answers an error for many ticks: the statuses stay, the reason is logged once
    kubelet.status = 503;
    const asked = kubelet.clients.length;
    await expect.poll(() => kubelet.clients.length, { timeout: 10_000 }).toBeGreaterThan(asked + 5);
    expect(env.lines.filter((l) => l.msg === 'kubelet pods not read').map((l) => l.reason)).toEqual([
      'GET /pods/: unable to verify the first certificate',
      'GET /pods/: Service Unavailable',
    ]);
    await assertLength(env.state, StaticPodStatus, 1, { signal });
    kubelet.status = 200;
    await expect.poll(() => env.lines.filter((l) => l.msg === 'kubelet pods read again').length).toBe(2);

    // no pods at all: the kubelet's list is `"items": null`
    kubelet.pods = null;
    await assertLength(env.state, StaticPodStatus, 0, { signal });
    kubelet.pods = [kubePod('kube-scheduler-cp-1', 'file', 'Running')];
    await assertLength(env.state, StaticPodStatus, 1, { signal });
    expect(env.lines.filter((l) => l.msg === 'kubelet pods not read')).toHaveLength(2);

    // the kubelet stopped: every status goes, and the kubelet is not asked any more
    await env.state.modify(running(false), (r) => {
      r.spec = { running: false, healthy: false, unknown: false };
    });
    await assertLength(env.state, StaticPodStatus, 0, { signal });
    const after = kubelet.clients.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(kubelet.clients.length).toBeLessThanOrEqual(after + 1);
    expect(env.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
