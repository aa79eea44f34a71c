// The inventory of applied bootstrap objects: a ConfigMap in kube-system whose keys name them, as
// upstream's (go-kubernetes' ssa ConfigMap inventory). Read, created when missing, and written whole.
import { isAlreadyExists, isNotFound, type KubeClient } from '../../../../src/k8s/index.js';
import { INVENTORY_NAME, INVENTORY_NAMESPACE } from './constants.js';

const NAMESPACE_PATH = `/api/v1/namespaces/${INVENTORY_NAMESPACE}`;
const CONFIGMAPS_PATH = `${NAMESPACE_PATH}/configmaps`;
const CONFIGMAP_PATH = `${CONFIGMAPS_PATH}/${INVENTORY_NAME}`;
const metadata = { name: INVENTORY_NAME, namespace: INVENTORY_NAMESPACE };

/** readInventory gives the keys the inventory holds, making its namespace and ConfigMap if need be. */
export async function readInventory(client: KubeClient, signal?: AbortSignal): Promise<Set<string>> {
  try {
    await client.get(NAMESPACE_PATH, { signal });
  } catch (e) {
    if (!isNotFound(e)) throw e;
    await client
      .create(
        '/api/v1/namespaces',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: INVENTORY_NAMESPACE } },
        { signal },
      )
      .catch((err: unknown) => {
        if (!isAlreadyExists(err)) throw err;
      });
  }
  try {
    const cm = await client.get(CONFIGMAP_PATH, { signal });
    return new Set(Object.keys((cm.data as Record<string, string> | undefined) ?? {}));
  } catch (e) {
    if (!isNotFound(e)) throw e;
    await client.create(CONFIGMAPS_PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata }, { signal });
    return new Set();
  }
}

/** writeInventory replaces the inventory's keys (values are empty, as upstream's). */
export async function writeInventory(
  client: KubeClient,
  keys: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<void> {
  const data = Object.fromEntries([...keys].map((k) => [k, '']));
  await client.update(CONFIGMAP_PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, { signal });
}
