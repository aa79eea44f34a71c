// ClusterService.HealthCheck through a real API server (mutual TLS): the node's facts from its state, its
// services and etcd (stand-ins), Kubernetes from a small HTTPS server signed by the cluster's CA and
// reached through force_endpoint. It refuses a node that is no control plane; it streams upstream's
// lines; it ends when every check holds, or with DeadlineExceeded naming the check it waited for.
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Client, type ClientReadableStream, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  bootstrapManifestsConfigZero,
} from '../../../resources/k8s/bootstrap-manifests-config.js';
import {
  NETWORK_NAMESPACE,
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NodeAddress,
} from '../../../resources/network/index.js';
import { MACHINE_STATUS_ID, MachineStatus } from '../../../resources/runtime/machine-status.js';
import { freePort } from '../../../scripts/lib/free-port.js';
import type { ClusterDeps } from '../../../src/api/cluster/deps.js';
import { clusterHandlers } from '../../../src/api/cluster/index.js';
import type { EtcdHost, ServiceInfoLike } from '../../../src/api/machine-stateful/deps.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { type Config, generateConfigs, mintSecrets, v1alpha1Of } from '../../../src/config/index.js';
import { defineResource } from '../../../src/cosi/resource/typed.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import type { EtcdClient } from '../../../src/etcd/index.js';
import { issueCertificate } from '../../../src/pki/index.js';
import { callStream, errorOf, mintPKI, mtls, type Reply, serviceClient, type TestPKI } from '../fixtures.js';

/** The kubelet's static pod statuses, as their controller publishes them (only the kind matters here). */
const StaticPodStatuses = defineResource<{ podStatus: Record<string, unknown> }>({
  type: 'StaticPodStatuses.kubernetes.talos.dev',
  defaultNamespace: 'k8s',
  empty: () => ({ podStatus: {} }),
});

const service = (id: string, healthy: boolean): ServiceInfoLike => ({
  id,
  state: 'Running',
  health: { unknown: false, healthy, lastMessage: '', lastChange: undefined },
  events: [{ msg: 'Health check successful', state: 'Running', ts: new Date() }],
});

let pki: TestPKI;
let controlplane: Config;
let worker: Config;
let state: State;
let services: ServiceInfoLike[];
let kube: Server;
let kubeNodes: unknown[];
let closedPort: number;
const servers: ApiServer[] = [];
const clients: Client[] = [];

/** etcd stands in for the node's member: one member, peer URL on 127.0.0.1 */
const etcd: EtcdHost = {
  ready: async () => {},
  client: () =>
    ({
      memberList: async () => [
        { id: '42', name: 'cp-1', peerURLs: ['https://127.0.0.1:2380'], clientURLs: [], isLearner: false },
      ],
      close: () => {},
    }) as unknown as EtcdClient,
  bootstrap: async () => {},
  localMemberId: async () => '42',
  storeRecoverySnapshot: async () => {},
};

/** serve starts an API server with the HealthCheck handler over `deps` and a client of ClusterService. */
async function serve(deps: Partial<ClusterDeps>): Promise<Client> {
  const server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state,
    identity: { ca: pki.osCA.crt, server: pki.server },
    handlers: clusterHandlers({
      config: { active: () => controlplane, validationMode: 'container' },
      services: { list: () => services },
      etcd,
      state,
      peers: async () => undefined,
      ...deps,
    }),
  });
  servers.push(server);
  const c = serviceClient('cluster.ClusterService', server.address, mtls(pki.osCA.crt, pki.admin));
  clients.push(c);
  return c;
}

/**
 * healthCheck runs the check to its end, or to its `take`th message: every message's text, and the status
 * it failed with (if it did).
 */
function healthCheck(
  c: Client,
  req: object,
  take = Number.POSITIVE_INFINITY,
): Promise<{ lines: string[]; error?: ServiceError }> {
  return new Promise((resolve) => {
    const lines: string[] = [];
    const call = (c as unknown as { HealthCheck(r: object): ClientReadableStream<Reply> }).HealthCheck(req);
    call.on('data', (m: Reply) => {
      lines.push(String(m.message));
      if (lines.length < take) return;
      call.removeAllListeners('error');
      call.on('error', () => {});
      call.cancel();
      resolve({ lines });
    });
    call.on('error', (error: ServiceError) => resolve({ lines, error }));
    call.on('end', () => resolve({ lines }));
  });
}

beforeAll(async () => {
  pki = await mintPKI();
  // a port nothing listens on: the cluster endpoint, which only the last test dials
  closedPort = await freePort();
  const generated = generateConfigs({
    clusterName: 'health',
    endpoint: `https://127.0.0.1:${closedPort}`,
    secrets: await mintSecrets(),
  });
  controlplane = generated.controlplane;
  worker = generated.worker;
  state = wrapCore(newInmemState());
  await state.create(
    MachineStatus.new('runtime', MACHINE_STATUS_ID, {
      stage: 'running',
      status: { ready: true, unmetConditions: [] },
    }),
  );
  await state.create(
    NodeAddress.new(NETWORK_NAMESPACE, NODE_ADDRESS_ACCUMULATIVE_ID, {
      ...NodeAddress.codec.empty(),
      addresses: ['10.5.0.2/24'],
    }),
  );
  await state.create(
    BootstrapManifestsConfig.new('controlplane', BOOTSTRAP_MANIFESTS_CONFIG_ID, {
      ...bootstrapManifestsConfigZero(),
      cniName: 'flannel',
    }),
  );
  for (const p of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'])
    await state.create(StaticPodStatuses.new('k8s', `kube-system/${p}-cp-1`));
  services = [service('etcd', true)];

  // the cluster's API server, as far as the checks ask it: one Ready control plane node, its components
  const ca = v1alpha1Of(controlplane)!.cluster!.ca!;
  const pem = (b64: string) => Buffer.from(b64, 'base64').toString();
  const serving = await issueCertificate(
    { crt: pem(ca.crt!), key: pem(ca.key!) },
    { commonName: 'kube-apiserver', ipAddresses: ['127.0.0.1'], extKeyUsage: ['serverAuth'] },
  );
  kubeNodes = [];
  const ready = (name: string) => ({
    metadata: { name, namespace: 'kube-system' },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ state: {} }],
    },
  });
  kube = createServer(
    { cert: serving.crt, key: serving.key, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://x');
      const selector = url.searchParams.get('labelSelector') ?? '';
      const app = /k8s-app ?= ?(\S+)/.exec(selector)?.[1];
      let items: unknown[] = [];
      if (url.pathname === '/api/v1/nodes') items = kubeNodes;
      else if (url.pathname.endsWith('/pods') && app) items = [ready(`${app}-cp-1`)];
      else if (url.pathname.endsWith('/daemonsets') && app === 'kube-proxy')
        items = [{ metadata: { name: 'kube-proxy' }, status: { desiredNumberScheduled: 1 } }];
      else if (url.pathname.endsWith('/deployments') && app === 'kube-dns')
        items = [{ metadata: { name: 'coredns' }, spec: { replicas: 1 } }];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ kind: 'List', items }));
    },
  );
  kube.listen(0, '127.0.0.1');
  await once(kube, 'listening');
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all(servers.map((s) => s.close({ signal: AbortSignal.timeout(5_000) })));
  await new Promise<void>((r) => (kube ? kube.close(() => r()) : r()));
});

const secs = (s: number) => ({ seconds: String(s), nanos: 0 });

describe('HealthCheck refuses a node that is no control plane', () => {
  it('in maintenance mode (no config) and on a worker, with upstream’s words', async () => {
    const maintenance = await serve({ config: { active: () => undefined, validationMode: 'container' } });
    const m = await errorOf(callStream(maintenance, 'HealthCheck', { wait_timeout: secs(5) }));
    expect(m.code).toBe(status.UNIMPLEMENTED);
    expect(m.details).toBe('machine type is not set, cannot use cluster health check API');
    const onWorker = await serve({ config: { active: () => worker, validationMode: 'container' } });
    const w = await errorOf(callStream(onWorker, 'HealthCheck', { wait_timeout: secs(5) }));
    expect(w.code).toBe(status.UNIMPLEMENTED);
    expect(w.details).toBe('cluster health check is only available on control plane nodes');
  });
});

const cpNode = {
  metadata: { name: 'cp-1', labels: { 'node-role.kubernetes.io/control-plane': '' } },
  spec: {},
  status: {
    addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
    conditions: [{ type: 'Ready', status: 'True' }],
  },
};
const request = (timeoutSeconds: number, o: { nodes?: string[]; kube?: boolean } = {}) => ({
  wait_timeout: secs(timeoutSeconds),
  cluster_info: {
    control_plane_nodes: o.nodes ?? ['127.0.0.1'],
    worker_nodes: [],
    force_endpoint: o.kube ? `127.0.0.1:${(kube.address() as AddressInfo).port}` : '',
  },
});

describe('HealthCheck on a control plane', () => {
  it('passes the checks it can, and ends with DeadlineExceeded on the one it waits for', async () => {
    services = [service('etcd', true)]; // no kubelet
    const c = await serve({});
    const r = await healthCheck(c, request(2));
    expect(r.error?.code, r.lines.join('\n')).toBe(status.DEADLINE_EXCEEDED);
    expect(r.error?.details).toBe('context deadline exceeded');
    expect(r.lines).toEqual([
      'discovered nodes: ["127.0.0.1"]',
      'waiting for etcd to be healthy: ...',
      'waiting for etcd to be healthy: OK',
      'waiting for etcd members to be consistent across nodes: ...',
      'waiting for etcd members to be consistent across nodes: OK',
      'waiting for etcd members to be control plane nodes: ...',
      'waiting for etcd members to be control plane nodes: OK',
      'waiting for apid to be ready: ...',
      'waiting for apid to be ready: OK',
      'waiting for all nodes memory sizes: ...',
      'waiting for all nodes memory sizes: OK',
      'waiting for all nodes disk sizes: ...',
      'waiting for all nodes disk sizes: OK',
      'waiting for no diagnostics: ...',
      'waiting for no diagnostics: OK',
      'waiting for kubelet to be healthy: ...',
      'waiting for kubelet to be healthy: expected a response with 1 node(s), got 0',
    ]);
  });

  it('ends at once with a wait_timeout of zero, after naming the nodes (as upstream’s expired context)', async () => {
    const r = await healthCheck(await serve({}), request(0));
    expect(r.lines).toEqual(['discovered nodes: ["127.0.0.1"]']);
    expect(r.error?.code).toBe(status.DEADLINE_EXCEEDED);
  });

  it('takes a wait_timeout past what a timer holds, or of a fraction of a millisecond, as a wait', async () => {
    services = [service('etcd', true)];
    for (const wait_timeout of [
      { seconds: '9999999999', nanos: 0 },
      { seconds: '0', nanos: 1 },
    ]) {
      const r = await healthCheck(await serve({}), { ...request(0), wait_timeout }, 2);
      expect(r.error, r.lines.join('\n')).toBeUndefined();
      expect(r.lines.slice(0, 2)).toEqual([
        'discovered nodes: ["127.0.0.1"]',
        'waiting for etcd to be healthy: ...',
      ]);
    }
  });

  it('reports a node it cannot reach, never counting it healthy', async () => {
    const r = await healthCheck(await serve({}), request(1, { nodes: ['127.0.0.1', '10.255.0.9'] }));
    expect(r.lines.slice(0, 2)).toEqual([
      'discovered nodes: ["127.0.0.1" "10.255.0.9"]',
      'waiting for etcd to be healthy: ...',
    ]);
    expect(r.lines[2]).toBe(
      'waiting for etcd to be healthy: 1 error occurred:\n\t* 10.255.0.9: rpc error: code = Unavailable desc = this node has no API client certificate to reach 10.255.0.9 with: only the node the health check runs on can be checked',
    );
    expect(r.error?.code).toBe(status.DEADLINE_EXCEEDED);
  });

  it('ends OK once every check holds, Kubernetes read through the forced endpoint', async () => {
    services = [service('etcd', true), service('kubelet', true)];
    kubeNodes = [cpNode];
    const r = await healthCheck(await serve({}), request(20, { kube: true }));
    expect(r.error, r.lines.join('\n')).toBeUndefined();
    expect(r.lines.filter((l) => !l.endsWith(': ...'))).toEqual([
      'discovered nodes: ["127.0.0.1"]',
      'waiting for etcd to be healthy: OK',
      'waiting for etcd members to be consistent across nodes: OK',
      'waiting for etcd members to be control plane nodes: OK',
      'waiting for apid to be ready: OK',
      'waiting for all nodes memory sizes: OK',
      'waiting for all nodes disk sizes: OK',
      'waiting for no diagnostics: OK',
      'waiting for kubelet to be healthy: OK',
      'waiting for all nodes to finish boot sequence: OK',
      'waiting for all k8s nodes to report: OK',
      'waiting for all control plane static pods to be running: OK',
      'waiting for all control plane components to be ready: OK',
      'waiting for all k8s nodes to report ready: OK',
      'waiting for kube-proxy to report ready: OK',
      'waiting for coredns to report ready: OK',
      'waiting for all k8s nodes to report schedulable: OK',
    ]);
  });

  it('discovers the nodes from Kubernetes when the request names none', async () => {
    services = [service('etcd', true)];
    kubeNodes = [cpNode];
    const r = await healthCheck(await serve({}), {
      wait_timeout: secs(1),
      cluster_info: { force_endpoint: `127.0.0.1:${(kube.address() as AddressInfo).port}` },
    });
    expect(r.lines[0]).toBe('discovered nodes: ["127.0.0.1"]');
  });

  it('names the Kubernetes check it waits for, in client-go’s words for an API server that is not there', async () => {
    services = [service('etcd', true), service('kubelet', true)];
    const r = await healthCheck(await serve({}), request(2));
    expect(r.lines.at(-1)).toBe(
      `waiting for all k8s nodes to report: Get "https://127.0.0.1:${closedPort}/api/v1/nodes": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
    );
    expect(r.error?.code).toBe(status.DEADLINE_EXCEEDED);
  });
});
