// Another node's facts through its real API (mutual TLS), called with this node's impersonator certificate
// on the caller's behalf: ServiceList, EtcdMemberList, Version, Memory and COSI reads come back as the
// checks want them; a node that cannot be reached fails as the client's node error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBlockResources } from '../../../resources/block/index.js';
import { setSize, VolumeStatus, zeroVolumeStatus } from '../../../resources/block/volume-status.js';
import { registerRuntimeResources } from '../../../resources/runtime/index.js';
import { MACHINE_STATUS_ID, MachineStatus } from '../../../resources/runtime/machine-status.js';
import { API, API_ID } from '../../../resources/secrets/api.js';
import { SECRETS_NAMESPACE } from '../../../resources/secrets/namespace.js';
import { EPHEMERAL_VOLUME_ID, gather } from '../../../src/api/cluster/node-facts.js';
import { peerForwarder } from '../../../src/api/cluster/peers.js';
import { peerCaller, remoteNode } from '../../../src/api/cluster/remote-node.js';
import { systemInfoHandlers } from '../../../src/api/machine/index.js';
import type { EtcdHost, ServiceInfoLike } from '../../../src/api/machine-stateful/deps.js';
import { statefulHandlers } from '../../../src/api/machine-stateful/index.js';
import { type Forwarder, nodeForwarder } from '../../../src/api/routing/forwarder.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { registerNamespace, registerResource } from '../../../src/cosi/resource/meta/index.js';
import { registerDefault } from '../../../src/cosi/resource/meta/register.js';
import { defineResource } from '../../../src/cosi/resource/typed.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import type { EtcdClient } from '../../../src/etcd/index.js';
import { mintPKI, type TestPKI } from '../fixtures.js';

const StaticPodStatuses = defineResource<{ podStatus: Record<string, unknown> }>({
  type: 'StaticPodStatuses.kubernetes.talos.dev',
  defaultNamespace: 'k8s',
  empty: () => ({ podStatus: {} }),
});

let pki: TestPKI;
let other: ApiServer;
let forwarder: Forwarder;

const etcd = {
  ready: async () => {},
  client: () =>
    ({
      memberList: async () => [
        { id: '7', name: 'cp-2', peerURLs: ['https://10.5.0.3:2380'], clientURLs: [], isLearner: true },
      ],
      close: () => {},
    }) as unknown as EtcdClient,
} as unknown as EtcdHost;

const etcdService: ServiceInfoLike = {
  id: 'etcd',
  state: 'Running',
  health: { unknown: false, healthy: false, lastMessage: 'not yet', lastChange: undefined },
  events: [
    { msg: 'Starting service', state: 'Starting', ts: new Date() },
    { msg: 'Health check failed: no leader', state: 'Running', ts: new Date() },
  ],
};

beforeAll(async () => {
  pki = await mintPKI();
  const state: State = wrapCore(newInmemState());
  await registerDefault(state);
  await registerNamespace(state, 'runtime', 'runtime');
  await registerNamespace(state, 'k8s', 'k8s');
  await registerRuntimeResources(state);
  await registerBlockResources(state);
  await registerResource(state, StaticPodStatuses);
  await state.create(
    MachineStatus.new('runtime', MACHINE_STATUS_ID, {
      stage: 'booting',
      status: { ready: false, unmetConditions: [] },
    }),
  );
  const eph = zeroVolumeStatus();
  eph.location = '/dev/vda6';
  setSize(eph, 5 * 2 ** 30);
  await state.create(VolumeStatus.new('runtime', EPHEMERAL_VOLUME_ID, eph));
  await state.create(StaticPodStatuses.new('k8s', 'kube-system/kube-apiserver-cp-2'));
  other = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state,
    identity: { ca: pki.osCA.crt, server: pki.server },
    platform: { name: 'container', mode: 'container' },
    handlers: {
      ...systemInfoHandlers(),
      ...statefulHandlers({
        config: { active: () => undefined } as never,
        services: { list: () => [etcdService] } as never,
        etcd,
      }),
    },
  });
  forwarder = nodeForwarder({ ca: pki.osCA.crt, client: pki.impersonator });
}, 60_000);

afterAll(async () => {
  forwarder?.close();
  await other?.close({ signal: AbortSignal.timeout(5_000) });
});

describe('remoteNode', () => {
  it('reads another node’s services, members, platform, memory, volume, stage and static pods', async () => {
    const n = remoteNode(
      other.address,
      peerCaller(forwarder, { self: '10.5.0.2', roles: new Set(['os:reader']) }),
    );
    const signal = AbortSignal.timeout(10_000);
    expect(await n.service('etcd', signal)).toEqual({
      events: [
        { state: 'Starting', msg: 'Starting service' },
        { state: 'Running', msg: 'Health check failed: no leader' },
      ],
      healthy: false,
    });
    expect(await n.service('kubelet', signal)).toBeUndefined();
    expect(await n.etcdMembers(signal)).toEqual([
      { id: '7', hostname: 'cp-2', peerURLs: ['https://10.5.0.3:2380'], isLearner: true },
    ]);
    expect(await n.platform(signal)).toEqual({ container: true });
    expect(await n.memTotalKiB(signal)).toBeGreaterThan(0);
    expect(await n.ephemeral(signal)).toEqual({ location: '/dev/vda6', size: 5 * 2 ** 30 });
    expect(await n.machineStage(signal)).toBe('booting');
    expect(await n.staticPods(signal)).toEqual(['kube-system/kube-apiserver-cp-2']);
  });

  it('passes on the caller’s roles: a caller with none is refused by the other node', async () => {
    const n = remoteNode(other.address, peerCaller(forwarder, { self: '10.5.0.2', roles: new Set() }));
    const g = await gather([n], (x) => x.platform(AbortSignal.timeout(10_000)));
    expect(g.failures).toEqual([
      expect.stringMatching(/^127\.0\.0\.1:\d+: rpc error: code = PermissionDenied desc = /),
    ]);
  });

  it('fails as the client’s node error when the node cannot be reached', async () => {
    const n = remoteNode(
      '127.0.0.1:1',
      peerCaller(forwarder, { self: '10.5.0.2', roles: new Set(['os:reader']) }),
    );
    const g = await gather([n], (x) => x.platform(AbortSignal.timeout(10_000)));
    expect(g.answers).toEqual([]);
    expect(g.failures).toEqual([
      expect.stringMatching(/^127\.0\.0\.1:1: rpc error: code = Unavailable desc = /),
    ]);
  });
});

describe('peerForwarder', () => {
  it('is made from the node’s API client certificate, and absent without one', async () => {
    const state: State = wrapCore(newInmemState());
    const signal = AbortSignal.timeout(5_000);
    expect(await peerForwarder(state, signal)).toBeUndefined();
    await state.create(
      API.new(SECRETS_NAMESPACE, API_ID, {
        acceptedCAs: [{ crt: pki.osCA.crt }],
        client: null,
        server: pki.server,
        skipVerifyingClientCert: false,
      }),
    );
    expect(await peerForwarder(state, signal)).toBeUndefined(); // a worker's: no client certificate
    await state.modify(API.new(SECRETS_NAMESPACE, API_ID), (r) => {
      r.spec.client = pki.impersonator;
    });
    const f = await peerForwarder(state, signal);
    expect(f).toBeDefined();
    const n = remoteNode(other.address, peerCaller(f!, { self: '10.5.0.2', roles: new Set(['os:reader']) }));
    expect(await n.platform(signal)).toEqual({ container: true });
    f!.close();
  });
});
