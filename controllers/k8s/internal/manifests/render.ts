// The bootstrap manifests a control plane renders, as upstream's ManifestController lists them: each id
// (its order of application) with its objects, the optional families as the config switches them on.
import type { BootstrapManifestsConfigSpec, K8sObject } from '../../../../resources/k8s/index.js';
import type { KubernetesRootSpec } from '../../../../resources/secrets/index.js';
import { K8sConfigError } from '../errors.js';
import { kubeletBootstrapTokenSecret } from './bootstrap-token.js';
import {
  coreDNSClusterRole,
  coreDNSClusterRoleBinding,
  coreDNSConfigMap,
  coreDNSService,
  coreDNSServiceAccount,
} from './coredns.js';
import { coreDNSDeployment } from './coredns-deployment.js';
import { csrApproverRoleBinding, csrNodeBootstrap, csrRenewalRoleBinding } from './csr.js';
import {
  flannelClusterRole,
  flannelClusterRoleBinding,
  flannelConfigMap,
  flannelServiceAccount,
} from './flannel.js';
import { flannelDaemonSet } from './flannel-daemonset.js';
import { kubeProxyClusterRoleBinding, kubeProxyDaemonSet, kubeProxyServiceAccount } from './kube-proxy.js';
import { kubeconfigInCluster } from './kubeconfig-in-cluster.js';
import { talosNodesRBACClusterRole, talosNodesRBACClusterRoleBinding } from './talos-nodes-rbac.js';
import { talosServiceAccountCRD } from './talos-service-account-crd.js';
import type { BootstrapObject } from './types.js';

export interface RenderedManifest {
  readonly id: string;
  readonly objects: K8sObject[];
}

type RootSecrets = Pick<KubernetesRootSpec, 'bootstrapTokenID' | 'bootstrapTokenSecret'>;

const manifest = (id: string, ...objects: BootstrapObject[]): RenderedManifest => ({
  id,
  // the resource holds untyped objects, as any manifest the cluster takes
  objects: objects.map((o) => o as unknown as K8sObject),
});

/** renderBootstrapManifests lists the manifests in upstream's order; a pod security policy is refused. */
export function renderBootstrapManifests(
  cfg: BootstrapManifestsConfigSpec,
  root: RootSecrets,
): RenderedManifest[] {
  const out = [
    manifest('00-kubelet-bootstrapping-token', kubeletBootstrapTokenSecret(root)),
    manifest('01-csr-node-bootstrap', csrNodeBootstrap()),
    manifest('01-csr-approver-role-binding', csrApproverRoleBinding()),
    manifest('01-csr-renewal-role-binding', csrRenewalRoleBinding()),
    manifest('11-kube-config-in-cluster', kubeconfigInCluster(cfg.server)),
    manifest('11-talos-node-rbac-template', talosNodesRBACClusterRoleBinding(), talosNodesRBACClusterRole()),
  ];
  if (cfg.coreDNSEnabled)
    out.push(
      manifest(
        '11-core-dns',
        coreDNSServiceAccount(),
        coreDNSClusterRole(),
        coreDNSClusterRoleBinding(),
        coreDNSConfigMap(cfg),
        coreDNSDeployment(cfg),
      ),
      manifest('11-core-dns-svc', coreDNSService(cfg)),
    );
  if (cfg.flannelEnabled)
    out.push(
      manifest(
        '05-flannel',
        flannelClusterRole(cfg),
        flannelClusterRoleBinding(),
        flannelServiceAccount(),
        flannelConfigMap(cfg),
        flannelDaemonSet(cfg),
      ),
    );
  if (cfg.proxyEnabled)
    out.push(
      manifest(
        '10-kube-proxy',
        kubeProxyDaemonSet(cfg),
        kubeProxyServiceAccount(),
        kubeProxyClusterRoleBinding(),
      ),
    );
  if (cfg.podSecurityPolicyEnabled)
    throw new K8sConfigError(
      'pod security policies are not supported anymore, please remove the flag from the configuration',
    );
  if (cfg.talosAPIServiceEnabled)
    out.push(manifest('13-talos-service-account-crd', talosServiceAccountCRD()));
  return out;
}
