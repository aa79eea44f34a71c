// k8s.RenderSecretsStaticPodController: writes the control plane's secrets (certificates, keys,
// kubeconfigs, the encryption config) where its static pods read them, then publishes SecretsStatus
// `static-pods` with the version of the kubeconfigs' resource, as upstream's: a new version changes the
// pods' annotation, and the kubelet restarts them on the new files.
import { SecretsStatus, STATIC_POD_SECRETS_STATIC_POD_ID } from '../../resources/k8s/index.js';
import {
  ETCD_ID,
  ETCD_ROOT_ID,
  Etcd,
  EtcdRoot,
  KUBERNETES_DYNAMIC_CERTS_ID,
  KUBERNETES_ID,
  KUBERNETES_ROOT_ID,
  Kubernetes,
  KubernetesDynamicCerts,
  KubernetesRoot,
} from '../../resources/secrets/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { versionString } from '../../src/cosi/resource/version.js';
import { writeComponentFiles } from './internal/component-files.js';
import { staticPodSecretFiles } from './internal/static-pod-secrets.js';

export interface RenderSecretsOptions {
  /** the host directory of the components' secrets (/system/secrets/kubernetes on a node) */
  readonly secretsDir: string;
  /** chown each file to its component's user (a node); container mode keeps its own */
  readonly owned: boolean;
}

export function renderSecretsStaticPodController(opts: RenderSecretsOptions) {
  return defineController({
    name: 'k8s.RenderSecretsStaticPodController',
    inputs: [
      input(KubernetesRoot, { id: KUBERNETES_ROOT_ID }),
      input(EtcdRoot, { id: ETCD_ROOT_ID }),
      input(Kubernetes, { id: KUBERNETES_ID }),
      input(KubernetesDynamicCerts, { id: KUBERNETES_DYNAMIC_CERTS_ID }),
      input(Etcd, { id: ETCD_ID }),
    ],
    outputs: [output(SecretsStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        const kubeconfigs = await rt.getOrNull(Kubernetes, KUBERNETES_ID, { signal });
        const dynamic = await rt.getOrNull(KubernetesDynamicCerts, KUBERNETES_DYNAMIC_CERTS_ID, { signal });
        const etcd = await rt.getOrNull(Etcd, ETCD_ID, { signal });
        const etcdRoot = await rt.getOrNull(EtcdRoot, ETCD_ROOT_ID, { signal });
        const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
        // not minted yet (or not a control plane): nothing to write
        if (!kubeconfigs || !dynamic || !etcd || !etcdRoot || !root) continue;
        const layout = staticPodSecretFiles({
          root: root.spec,
          etcdRoot: etcdRoot.spec,
          etcd: etcd.spec,
          kubeconfigs: kubeconfigs.spec,
          dynamic: dynamic.spec,
        });
        for (const { component, files } of layout) {
          const written = writeComponentFiles({ base: opts.secretsDir, owned: opts.owned }, component, files);
          if (written.length > 0) logger.info('static pod secrets written', { component, files: written });
        }
        const version = versionString(kubeconfigs.metadata.version);
        await rt.modify(SecretsStatus, STATIC_POD_SECRETS_STATIC_POD_ID, () => ({ ready: true, version }), {
          signal,
        });
        rt.resetBackoff();
      }
    },
  });
}
