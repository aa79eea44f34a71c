// The files of the control plane's secrets, as upstream's RenderSecretsStaticPodController writes them:
// per component its certificates, keys, kubeconfig and (for the API server) the encryption config, by
// file name. Pure: the controller writes them.
import { createPublicKey } from 'node:crypto';
import YAML from 'yaml';
import type {
  CertificateAndKey,
  EtcdCertsSpec,
  EtcdRootSpec,
  KubernetesCertsSpec,
  KubernetesDynamicCertsSpec,
  KubernetesRootSpec,
} from '../../../resources/secrets/index.js';
import { decodePrivateKey, encodePEM, PEMLabel } from '../../../src/pki/index.js';
import type { ControlPlaneComponent } from '../static-pod-paths.js';
import { K8sConfigError } from './errors.js';

export interface StaticPodSecretInputs {
  readonly root: KubernetesRootSpec;
  readonly etcdRoot: EtcdRootSpec;
  readonly etcd: EtcdCertsSpec;
  readonly kubeconfigs: KubernetesCertsSpec;
  readonly dynamic: KubernetesDynamicCertsSpec;
}

/** ComponentFiles are one component's files: name → contents. */
export interface ComponentFiles {
  readonly component: ControlPlaneComponent;
  readonly files: ReadonlyMap<string, string>;
}

/** present refuses a secret the minting controllers have not made yet, naming it. */
function present<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined) throw new K8sConfigError(`static pod secrets: ${what} is missing`);
  return v;
}

/** serviceAccountPair is the service account key and its public half (PKIX), as upstream reads them. */
export function serviceAccountPair(keyPEM: string): CertificateAndKey {
  const pub = createPublicKey(decodePrivateKey(keyPEM, 'service account key'));
  return { crt: encodePEM(PEMLabel.publicKey, pub.export({ type: 'spki', format: 'der' })), key: keyPEM };
}

/** encryptionConfig is upstream's APIServerEncryptionConfig: secrets by secretbox, aescbc, then identity. */
export function encryptionConfig(root: KubernetesRootSpec): string {
  const providers: Record<string, unknown>[] = [];
  if (root.secretboxEncryptionSecret)
    providers.push({ secretbox: { keys: [{ name: 'key2', secret: root.secretboxEncryptionSecret }] } });
  if (root.aesCBCEncryptionSecret)
    providers.push({ aescbc: { keys: [{ name: 'key1', secret: root.aesCBCEncryptionSecret }] } });
  providers.push({ identity: {} });
  return YAML.stringify({
    kind: 'EncryptionConfig',
    apiVersion: 'v1',
    resources: [{ resources: ['secrets'], providers }],
  });
}

/** staticPodSecretFiles lays out every component's secret files. */
export function staticPodSecretFiles(i: StaticPodSecretInputs): ComponentFiles[] {
  const sa = serviceAccountPair(present(i.root.serviceAccount, 'the service account key').key);
  const issuing = present(i.root.issuingCA, 'the Kubernetes CA');
  const apiServer = present(i.dynamic.apiServer, 'the API server certificate');
  const kubeletClient = present(
    i.dynamic.apiServerKubeletClient,
    'the API server kubelet client certificate',
  );
  const frontProxy = present(i.dynamic.frontProxy, 'the front proxy client certificate');
  const etcdClient = present(i.etcd.etcdAPIServer, 'the API server etcd client certificate');
  return [
    {
      component: 'kube-apiserver',
      files: new Map([
        ['etcd-client-ca.crt', present(i.etcdRoot.etcdCA, 'the etcd CA').crt],
        ['etcd-client.crt', etcdClient.crt],
        ['etcd-client.key', etcdClient.key],
        // every accepted CA, so clients of a CA being rotated in or out are still trusted
        ['ca.crt', i.root.acceptedCAs.map((c) => c.crt).join('')],
        ['apiserver.crt', apiServer.crt],
        ['apiserver.key', apiServer.key],
        ['apiserver-kubelet-client.crt', kubeletClient.crt],
        ['apiserver-kubelet-client.key', kubeletClient.key],
        ['service-account.pub', sa.crt],
        ['service-account.key', sa.key],
        ['aggregator-ca.crt', present(i.root.aggregatorCA, 'the aggregator CA').crt],
        ['front-proxy-client.crt', frontProxy.crt],
        ['front-proxy-client.key', frontProxy.key],
        ['encryptionconfig.yaml', encryptionConfig(i.root)],
      ]),
    },
    {
      component: 'kube-controller-manager',
      files: new Map([
        ['ca.crt', issuing.crt],
        ['ca.key', issuing.key],
        ['service-account.key', sa.key],
        ['kubeconfig', i.kubeconfigs.controllerManagerKubeconfig],
      ]),
    },
    {
      component: 'kube-scheduler',
      files: new Map([['kubeconfig', i.kubeconfigs.schedulerKubeconfig]]),
    },
  ];
}
