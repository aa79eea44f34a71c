// ManifestApplyController against a real etcd and a real kube-apiserver (the Kubernetes component's
// binary), both on free loopback ports, with the certificates, kubeconfigs and files Keel's own secrets
// and render controllers make from a control plane config, and the API server's arguments from its static
// pod: the bootstrap manifests land in the cluster (server-side applied by `talos`, listed in upstream's
// inventory), the etcd mutex is left free, and a later pass applies only what is new.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SERVICE_ID } from '../../../controllers/etcd/service.js';
import {
  ControlPlaneBootstrapManifestsController,
  ManifestApplyController,
  ManifestController,
} from '../../../controllers/k8s/index.js';
import {
  K8S_CONTROL_PLANE_NAMESPACE,
  type K8sObject,
  MANIFEST_STATUS_ID,
  Manifest,
  ManifestStatus,
} from '../../../resources/k8s/index.js';
import { Service, ServiceSpec, V1ALPHA1_NAMESPACE } from '../../../resources/v1alpha1/index.js';
import { generateConfigs, mintSecrets } from '../../../src/config/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { prefixEnd } from '../../../src/etcd/index.js';
import { discoveryMapper, gvkOf, isNotFound, KubeClient, resourcePath } from '../../../src/k8s/index.js';
import {
  hostname,
  machineConfig,
  nodeAddresses,
  type RuntimeEnv,
  startRuntime,
} from '../../controllers/secrets/env.js';
import { freePort } from '../../machined/node/harness.js';
import { controlPlaneControllers, type RunningControlPlane, startControlPlane } from './apiserver.js';

const MUTEX_PREFIX = Buffer.from('talos:v1:manifestApplyMutex/');
/** a fresh bound for each wait */
const wait = () => ({ signal: AbortSignal.timeout(90_000) });

let work: string;
let env: RuntimeEnv | undefined;
let controlPlane: RunningControlPlane | undefined;
let kube: KubeClient | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'keel-manifest-apply-'));
  const port = await freePort();
  const generated = generateConfigs({
    clusterName: 'demo',
    endpoint: 'https://cp.example.com:6443',
    secrets: await mintSecrets(),
  });
  // the local endpoint the admin kubeconfig dials is KubePrism's: here the API server itself answers it
  const cfg = applyPatches(generated.controlplane, [
    loadPatch(`machine:
  features:
    kubePrism: { enabled: true, port: ${port} }
    kubernetesTalosAPIAccess: { enabled: true, allowedRoles: ['os:reader'], allowedKubernetesNamespaces: [kube-system] }
cluster:
  controlPlane: { localAPIServerPort: ${port} }
`),
  ]);
  const root = join(work, 'root');
  env = startRuntime([
    ...controlPlaneControllers(root),
    ControlPlaneBootstrapManifestsController,
    ManifestController,
    ManifestApplyController,
  ]);
  const { state } = env;
  await state.create(machineConfig(cfg));
  await state.create(hostname('cp1'));
  await state.create(nodeAddresses('10.5.0.2/24'));

  controlPlane = await startControlPlane(state, root);
  const { etcd, etcdPKI } = controlPlane;
  kube = KubeClient.fromKubeconfig(controlPlane.kubeconfig);

  // etcd as the node's etcd ServiceSpec and Service show it, once both servers answer
  const file = (name: string, content: string) => ({
    path: `/system/secrets/etcd/${name}`,
    mode: 0o400,
    content,
  });
  const etcdSpec = ServiceSpec.new(V1ALPHA1_NAMESPACE, ETCD_SERVICE_ID);
  etcdSpec.spec.files = [
    file('ca.crt', etcdPKI.ca),
    file('admin.crt', etcdPKI.admin.cert),
    file('admin.key', etcdPKI.admin.key),
  ];
  etcdSpec.spec.options = {
    localEndpoint: etcd.endpoint,
    caFile: '/system/secrets/etcd/ca.crt',
    certFile: '/system/secrets/etcd/admin.crt',
    keyFile: '/system/secrets/etcd/admin.key',
  };
  await state.create(etcdSpec);
  await state.create(
    Service.new(V1ALPHA1_NAMESPACE, ETCD_SERVICE_ID, { running: true, healthy: true, unknown: false }),
  );
}, 240_000);

afterAll(async () => {
  kube?.close();
  await env?.stop();
  await controlPlane?.stop();
  rmSync(work, { recursive: true, force: true });
});

const manifestIds = async () =>
  (await env!.state.list({ namespace: K8S_CONTROL_PLANE_NAMESPACE, type: Manifest.type }))
    .map((r) => r.metadata.id)
    .sort();

async function bootstrapObjects(): Promise<K8sObject[]> {
  const ms = await env!.state.list({ namespace: K8S_CONTROL_PLANE_NAMESPACE, type: Manifest.type });
  return ms.flatMap((m) => (m.spec as { items: K8sObject[] }).items);
}

/** live reads an object back from the cluster by its own apiVersion, kind, namespace and name. */
async function live(obj: K8sObject): Promise<K8sObject> {
  const mapping = await discoveryMapper(kube!).mapping(gvkOf(obj));
  const meta = obj.metadata as K8sObject;
  return kube!.get(resourcePath(mapping, (meta.namespace as string) ?? 'default', String(meta.name)));
}

async function mutexKeys(): Promise<number> {
  const r = await controlPlane!.etcd
    .client()
    .call('KV', 'Range', { key: MUTEX_PREFIX, range_end: prefixEnd(MUTEX_PREFIX) });
  return (r.kvs as unknown[]).length;
}

describe('ManifestApplyController', () => {
  it('applies every bootstrap object with server-side apply, records them, and frees the mutex', async () => {
    const ids = await manifestIds();
    expect(ids).toEqual(
      expect.arrayContaining([
        '00-kubelet-bootstrapping-token',
        '05-flannel',
        '11-core-dns-svc',
        '13-talos-service-account-crd',
      ]),
    );
    await assertResource(
      env!.state,
      ManifestStatus,
      MANIFEST_STATUS_ID,
      (r) => expect(r.spec.manifestsApplied).toEqual(ids),
      wait(),
    );

    const objects = await bootstrapObjects();
    for (const obj of objects) {
      const got = await live(obj);
      const meta = got.metadata as {
        annotations?: Record<string, string>;
        managedFields?: { manager: string; operation: string }[];
      };
      expect(
        meta.annotations?.['config.k8s.io/owning-inventory'],
        String((obj.metadata as K8sObject).name),
      ).toBe('talos-bootstrap-manifests-inventory');
      expect(meta.managedFields).toContainEqual(
        expect.objectContaining({ manager: 'talos', operation: 'Apply' }),
      );
    }
    // the ones a node needs to join, by name
    expect((await kube!.get('/api/v1/namespaces/kube-system/services/kube-dns')).spec).toMatchObject({
      clusterIP: '10.96.0.10',
    });
    await kube!.get('/apis/apps/v1/namespaces/kube-system/daemonsets/kube-flannel');
    await kube!.get(`/api/v1/namespaces/kube-system/secrets/bootstrap-token-${cfgTokenID(objects)}`);
    await kube!.get(
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system-bootstrap-approve-node-client-csr',
    );
    await kube!.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/serviceaccounts.talos.dev');

    const inventory = await kube!.get(
      '/api/v1/namespaces/kube-system/configmaps/talos-bootstrap-manifests-inventory',
    );
    const keys = Object.keys(inventory.data as Record<string, string>);
    expect(keys).toHaveLength(objects.length);
    expect(keys).toContain('kube-system_kube-dns__Service');
    expect(keys).toContain(
      '_system-bootstrap-approve-node-client-csr_rbac.authorization.k8s.io_ClusterRoleBinding',
    );
    expect(await mutexKeys()).toBe(0);
  }, 120_000);

  it('applies only what the inventory lacks on a later pass', async () => {
    const flannel = await kube!.get('/apis/apps/v1/namespaces/kube-system/daemonsets/kube-flannel');
    // gone from the cluster but still in the inventory: not applied again
    await kube!.request({ method: 'DELETE', path: '/api/v1/namespaces/kube-system/services/kube-dns' });
    await env!.state.create(
      Manifest.new(K8S_CONTROL_PLANE_NAMESPACE, '99-extra', {
        items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keel-extra' }, data: { a: 'b' } }],
      }),
    );
    await assertResource(
      env!.state,
      ManifestStatus,
      MANIFEST_STATUS_ID,
      (r) => expect(r.spec.manifestsApplied).toContain('99-extra'),
      wait(),
    );

    // a namespaced object without a namespace lands in `default`
    expect((await kube!.get('/api/v1/namespaces/default/configmaps/keel-extra')).data).toEqual({ a: 'b' });
    await expect(kube!.get('/api/v1/namespaces/kube-system/services/kube-dns')).rejects.toSatisfy(isNotFound);
    const again = await kube!.get('/apis/apps/v1/namespaces/kube-system/daemonsets/kube-flannel');
    expect((again.metadata as K8sObject).resourceVersion).toBe(
      (flannel.metadata as K8sObject).resourceVersion,
    );
    const inventory = await kube!.get(
      '/api/v1/namespaces/kube-system/configmaps/talos-bootstrap-manifests-inventory',
    );
    expect(Object.keys(inventory.data as Record<string, string>)).toContain('_keel-extra__ConfigMap');
    expect(await mutexKeys()).toBe(0);
  }, 120_000);

  it('applies the rest of a pass that fails, and retries until the manifest is fixed', async () => {
    const good = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'keel-after-broken' },
      data: { x: 'y' },
    };
    await env!.state.create(
      Manifest.new(K8S_CONTROL_PLANE_NAMESPACE, '98-broken', {
        items: [
          // a kind the server does not know, and a name it refuses: recorded, and the pass goes on
          { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } },
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_A_Name' } },
          good,
        ],
      }),
    );
    await eventually(() => kube!.get('/api/v1/namespaces/default/configmaps/keel-after-broken'));
    // the pass failed, so the status still lacks the manifest
    const status = await env!.state.get(ManifestStatus.pointer(MANIFEST_STATUS_ID));
    expect((status.spec as { manifestsApplied: string[] }).manifestsApplied).not.toContain('98-broken');

    await env!.state.modify(Manifest.new(K8S_CONTROL_PLANE_NAMESPACE, '98-broken'), (r) => {
      r.spec = { items: [good] };
    });
    await assertResource(
      env!.state,
      ManifestStatus,
      MANIFEST_STATUS_ID,
      (r) => expect(r.spec.manifestsApplied).toContain('98-broken'),
      wait(),
    );
    expect(await mutexKeys()).toBe(0);
  }, 120_000);
});

/** eventually retries a check until it passes or the wait runs out. */
async function eventually<T>(check: () => Promise<T>): Promise<T> {
  const { signal } = wait();
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (signal.aborted) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** cfgTokenID is the bootstrap token's id, from the token Secret the manifests carry. */
function cfgTokenID(objects: readonly K8sObject[]): string {
  const secret = objects.find(
    (o) => o.kind === 'Secret' && String((o.metadata as K8sObject).name).startsWith('bootstrap-token-'),
  );
  return String((secret!.metadata as K8sObject).name).slice('bootstrap-token-'.length);
}
