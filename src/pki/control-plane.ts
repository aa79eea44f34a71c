// Every leaf a control-plane node holds upstream: apid, trustd, etcd and Kubernetes certificates,
// minted from the bundle's CAs. The secrets controllers mint these one resource at a time; this is the lot.
import type { SecretsBundleCerts } from './bundle.js';
import { type Issuer, issueCertificate, type LeafOptions, loadIssuer } from './issue.js';
import * as profile from './profiles.js';
import type { CertificateAndKey } from './types.js';

export interface ControlPlaneInputs {
  readonly certs: Pick<SecretsBundleCerts, 'os' | 'etcd' | 'k8s' | 'k8sAggregator'>;
  /** CertSANs(api): machine.certSANs, node addresses, 127.0.0.1, hostname and FQDN */
  readonly apiSANs: profile.SANs;
  readonly fqdn: string;
  /** CertSANs(k8s): endpoint host, `kubernetes…` names, service IPs, node addresses, localhost */
  readonly kubernetesSANs: profile.SANs;
  readonly etcdNode: profile.EtcdNode;
  readonly now?: Date;
  readonly signal?: AbortSignal;
}

/** ControlPlaneCertificates groups leaves by the resource that holds them upstream. */
export interface ControlPlaneCertificates {
  /** ApiCertificates(api) */
  readonly api: { readonly server: CertificateAndKey; readonly client: CertificateAndKey };
  /** TrustdCertificates(trustd) */
  readonly trustd: { readonly server: CertificateAndKey };
  /** EtcdSecrets(etcd) */
  readonly etcd: {
    readonly server: CertificateAndKey;
    readonly peer: CertificateAndKey;
    readonly admin: CertificateAndKey;
    readonly apiServer: CertificateAndKey;
  };
  /** KubernetesDynamicCerts(k8s-dynamic-certs) */
  readonly kubernetesDynamic: {
    readonly apiServer: CertificateAndKey;
    readonly apiServerKubeletClient: CertificateAndKey;
    readonly frontProxy: CertificateAndKey;
  };
  /** client certificates of the KubernetesSecrets(k8s-certs) kubeconfigs */
  readonly kubeconfigs: {
    readonly controllerManager: CertificateAndKey;
    readonly scheduler: CertificateAndKey;
    readonly admin: CertificateAndKey;
    readonly localhostAdmin: CertificateAndKey;
  };
}

/** mintControlPlaneCertificates issues the 14 leaves concurrently from CAs loaded once. */
export async function mintControlPlaneCertificates(
  inputs: ControlPlaneInputs,
): Promise<ControlPlaneCertificates> {
  const os = loadIssuer(inputs.certs.os, 'certs.os');
  const etcd = loadIssuer(inputs.certs.etcd, 'certs.etcd');
  const k8s = loadIssuer(inputs.certs.k8s, 'certs.k8s');
  const aggregator = loadIssuer(inputs.certs.k8sAggregator, 'certs.k8saggregator');
  const at = { now: inputs.now ?? new Date(), ...(inputs.signal ? { signal: inputs.signal } : {}) };
  const issue = (ca: Issuer, t: LeafOptions) => issueCertificate(ca, { ...t, ...at });
  const talosAdmin = profile.kubeconfigClient('talos:admin', 'system:masters');

  const [apiServer, apiClient, trustd, etcdServer, etcdPeer, etcdAdmin, etcdAPIServer] = await Promise.all([
    issue(os, profile.apidServer(inputs.apiSANs, inputs.fqdn)),
    issue(os, profile.apidClient(inputs.fqdn)),
    issue(os, profile.trustdServer(inputs.apiSANs, inputs.fqdn)),
    issue(etcd, profile.etcdServer(inputs.etcdNode)),
    issue(etcd, profile.etcdPeer(inputs.etcdNode)),
    issue(etcd, profile.etcdClient('talos')),
    issue(etcd, profile.etcdClient('kube-apiserver')),
  ]);
  const [kubeAPIServer, kubeletClient, frontProxy, controllerManager, scheduler, admin, localhostAdmin] =
    await Promise.all([
      issue(k8s, profile.kubeAPIServer(inputs.kubernetesSANs)),
      issue(k8s, profile.apiServerKubeletClient()),
      issue(aggregator, profile.frontProxyClient()),
      issue(
        k8s,
        profile.kubeconfigClient('system:kube-controller-manager', 'system:kube-controller-manager'),
      ),
      issue(k8s, profile.kubeconfigClient('system:kube-scheduler', 'system:kube-scheduler')),
      issue(k8s, talosAdmin),
      issue(k8s, talosAdmin),
    ]);
  return {
    api: { server: apiServer, client: apiClient },
    trustd: { server: trustd },
    etcd: { server: etcdServer, peer: etcdPeer, admin: etcdAdmin, apiServer: etcdAPIServer },
    kubernetesDynamic: { apiServer: kubeAPIServer, apiServerKubeletClient: kubeletClient, frontProxy },
    kubeconfigs: { controllerManager, scheduler, admin, localhostAdmin },
  };
}
