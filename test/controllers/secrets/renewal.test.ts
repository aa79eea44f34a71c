// Re-issue behaviour of the whole secrets controller set: at half-life on a hand-driven clock, and
// exactly the certificates that name the node when its hostname or addresses change.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MachineTypeController } from '../../../controllers/config/index.js';
import { kubeconfigClient, secretsControllers } from '../../../controllers/secrets/index.js';
import { HostnameStatus, NodeAddress } from '../../../resources/network/index.js';
import {
  API,
  Etcd,
  Kubelet,
  Kubernetes,
  KubernetesDynamicCerts,
  Trustd,
} from '../../../resources/secrets/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { type CertificateAndKey, parseCertificate } from '../../../src/pki/index.js';
import {
  type Cluster,
  type FakeClock,
  fakeClock,
  hostname,
  machineConfig,
  mintCluster,
  nodeAddresses,
  startRuntime,
} from './env.js';

const HOUR = 3_600_000;
/** the controllers that hold certificates and so arm a renewal timer */
const TIMED_CONTROLLERS = 5;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
});

const serial = (p: CertificateAndKey | null) => (p ? parseCertificate(p.crt).serialNumber : '');

/** serials names every certificate the node holds, by resource and field. */
async function serials(state: State, signal: AbortSignal): Promise<Record<string, string>> {
  const opts = { signal };
  const api = await assertResource(state, API, 'api', (r) => expect(r.spec.server).not.toBeNull(), opts);
  const trustd = await assertResource(
    state,
    Trustd,
    'trustd',
    (r) => expect(r.spec.server).not.toBeNull(),
    opts,
  );
  const etcd = await assertResource(state, Etcd, 'etcd', (r) => expect(r.spec.etcd).not.toBeNull(), opts);
  const dyn = await assertResource(
    state,
    KubernetesDynamicCerts,
    'k8s-dynamic-certs',
    (r) => expect(r.spec.apiServer).not.toBeNull(),
    opts,
  );
  const k8s = await assertResource(
    state,
    Kubernetes,
    'k8s-certs',
    (r) => expect(r.spec.adminKubeconfig).not.toBe(''),
    opts,
  );
  return {
    'api.server': serial(api.spec.server),
    'api.client': serial(api.spec.client),
    'trustd.server': serial(trustd.spec.server),
    'etcd.etcd': serial(etcd.spec.etcd),
    'etcd.etcdPeer': serial(etcd.spec.etcdPeer),
    'etcd.etcdAdmin': serial(etcd.spec.etcdAdmin),
    'etcd.etcdAPIServer': serial(etcd.spec.etcdAPIServer),
    'k8s.apiServer': serial(dyn.spec.apiServer),
    'k8s.apiServerKubeletClient': serial(dyn.spec.apiServerKubeletClient),
    'k8s.frontProxy': serial(dyn.spec.frontProxy),
    'kubeconfig.admin': serial(kubeconfigClient(k8s.spec.adminKubeconfig)),
    'kubeconfig.localhostAdmin': serial(kubeconfigClient(k8s.spec.localhostAdminKubeconfig)),
    'kubeconfig.controllerManager': serial(kubeconfigClient(k8s.spec.controllerManagerKubeconfig)),
    'kubeconfig.scheduler': serial(kubeconfigClient(k8s.spec.schedulerKubeconfig)),
  };
}

/** changed lists the certificates whose serial differs. */
const changed = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a)
    .filter((k) => a[k] !== b[k])
    .sort();

async function startNode(clock: FakeClock, signal: AbortSignal) {
  const env = startRuntime([MachineTypeController, ...secretsControllers({ clock })]);
  await env.state.create(machineConfig(cluster.controlplane));
  await env.state.create(hostname('cp1', 'example.com'));
  await env.state.create(nodeAddresses('10.5.0.2/24'));
  const before = await serials(env.state, signal);
  await clock.armed(TIMED_CONTROLLERS);
  return { env, before };
}

const sansOf = (p: CertificateAndKey | null) => {
  const info = parseCertificate(p?.crt ?? '');
  return [...info.dnsNames, ...info.ipAddresses];
};

describe('secrets controllers: re-issue', () => {
  it('re-issues apid and trustd certificates at half of their 24 h life, and nothing else', async ({
    signal,
  }) => {
    // certificates carry whole seconds: start on one so the new notBefore is exact
    const clock = fakeClock(new Date(Math.floor(Date.now() / 1000) * 1000));
    const { env, before } = await startNode(clock, signal);
    onTestFinished(env.stop);
    const start = clock.now().getTime();

    clock.advance(12 * HOUR - 1); // just before the half-life nothing is due
    clock.advance(1);
    const api = await assertResource(
      env.state,
      API,
      'api',
      (r) => {
        expect(serial(r.spec.server)).not.toBe(before['api.server']);
        expect(serial(r.spec.client)).not.toBe(before['api.client']);
      },
      { signal },
    );
    expect(parseCertificate(api.spec.server!.crt).notBefore.getTime()).toBe(start + 12 * HOUR);
    await assertResource(
      env.state,
      Trustd,
      'trustd',
      (r) => expect(serial(r.spec.server)).not.toBe(before['trustd.server']),
      { signal },
    );
    const after = await serials(env.state, signal);
    expect(changed(before, after)).toEqual(['api.client', 'api.server', 'trustd.server']);
  });

  it('re-issues exactly the certificates that name the node when the hostname changes', async ({
    signal,
  }) => {
    const clock = fakeClock();
    const { env, before } = await startNode(clock, signal);
    onTestFinished(env.stop);
    const kubelet = await assertResource(env.state, Kubelet, 'kubelet', () => {}, { signal });
    const kubeconfigs = await assertResource(env.state, Kubernetes, 'k8s-certs', () => {}, { signal });

    await env.state.modify(HostnameStatus.new('network', 'hostname'), (r) => {
      r.spec = { hostname: 'cp2', domainname: 'example.com' };
    });
    await waitForName(env.state, 'cp2.example.com', signal);
    const after = await serials(env.state, signal);
    expect(changed(before, after)).toEqual(
      ['api.client', 'api.server', 'etcd.etcd', 'etcd.etcdPeer', 'k8s.apiServer', 'trustd.server'].sort(),
    );
    // resources without node names are not even rewritten
    await assertResource(
      env.state,
      Kubernetes,
      'k8s-certs',
      (r) => expect(r.metadata.version).toBe(kubeconfigs.metadata.version),
      { signal },
    );
    await assertResource(
      env.state,
      Kubelet,
      'kubelet',
      (r) => expect(r.metadata.version).toBe(kubelet.metadata.version),
      {
        signal,
      },
    );
  });

  it('re-issues exactly the serving and peer certificates when an address is added', async ({ signal }) => {
    const clock = fakeClock();
    const { env, before } = await startNode(clock, signal);
    onTestFinished(env.stop);

    await env.state.modify(NodeAddress.new('network', 'accumulative-no-k8s'), (r) => {
      r.spec = { addresses: ['10.5.0.2/24', '10.5.0.3/24'] };
    });
    await waitForName(env.state, '10.5.0.3', signal);
    const after = await serials(env.state, signal);
    expect(changed(before, after)).toEqual(
      ['api.server', 'etcd.etcd', 'etcd.etcdPeer', 'k8s.apiServer', 'trustd.server'].sort(),
    );
  });
});

/** waitForName waits until every node-naming certificate carries `name` among its SANs. */
async function waitForName(state: State, name: string, signal: AbortSignal): Promise<void> {
  const has = (p: CertificateAndKey | null) => expect(sansOf(p)).toContain(name);
  await assertResource(state, API, 'api', (r) => has(r.spec.server), { signal });
  await assertResource(state, Trustd, 'trustd', (r) => has(r.spec.server), { signal });
  await assertResource(
    state,
    Etcd,
    'etcd',
    (r) => {
      has(r.spec.etcd);
      has(r.spec.etcdPeer);
    },
    { signal },
  );
  await assertResource(state, KubernetesDynamicCerts, 'k8s-dynamic-certs', (r) => has(r.spec.apiServer), {
    signal,
  });
}
