// The leaves a Talos node holds, as issuance templates after Talos' secrets controllers: subject, SANs,
// usages and lifetime of each. Pure data; pair with issueCertificate and the right CA.
import type { SignRequestOptions } from './csr.js';
import type { LeafOptions } from './issue.js';
import {
  DEFAULT_CERTIFICATE_VALIDITY_MS,
  ETCD_CERTIFICATE_VALIDITY_MS,
  KUBECONFIG_ALLOWED_TIME_SKEW_MS,
  KUBERNETES_CERTIFICATE_VALIDITY_MS,
  TALOS_API_CLIENT_VALIDITY_MS,
} from './lifetimes.js';
import { Role } from './roles.js';

/** SANs is a CertSANs resource's content: IPs and DNS names. */
export interface SANs {
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
}

/** EtcdNode is what etcd certificates name: the hostname, its DNS names and the node addresses. */
export interface EtcdNode {
  readonly hostname: string;
  /** hostname and FQDN (when it differs) */
  readonly dnsNames: readonly string[];
  /** the node's addresses (`accumulative-no-k8s`) */
  readonly ipAddresses: readonly string[];
}

type Template = Omit<LeafOptions, 'now' | 'signal'>;

/** apidServer: OS CA, CN=FQDN, serverAuth, SANs of CertSANs(api), 24 h. */
export const apidServer = (sans: SANs, fqdn: string): Template => ({
  commonName: fqdn,
  dnsNames: sans.dnsNames,
  ipAddresses: sans.ipAddresses,
  keyUsage: ['digitalSignature'],
  extKeyUsage: ['serverAuth'],
  validityMs: DEFAULT_CERTIFICATE_VALIDITY_MS,
});

/** apidClient: OS CA, apid's proxy identity (O=os:impersonator), clientAuth, 24 h. */
export const apidClient = (fqdn: string): Template => ({
  commonName: fqdn,
  organizations: [Role.impersonator],
  keyUsage: ['digitalSignature'],
  extKeyUsage: ['clientAuth'],
  validityMs: DEFAULT_CERTIFICATE_VALIDITY_MS,
});

/** trustdServer: OS CA, like apidServer but also keyEncipherment, 24 h. */
export const trustdServer = (sans: SANs, fqdn: string): Template => ({
  ...apidServer(sans, fqdn),
  keyUsage: ['digitalSignature', 'keyEncipherment'],
});

/** etcdPeer: etcd CA, CN=hostname, server+client auth, the node's names and addresses, 10 y. */
export const etcdPeer = (node: EtcdNode): Template => ({
  commonName: node.hostname,
  dnsNames: node.dnsNames,
  ipAddresses: node.ipAddresses,
  keyUsage: ['digitalSignature', 'keyEncipherment'],
  extKeyUsage: ['serverAuth', 'clientAuth'],
  validityMs: ETCD_CERTIFICATE_VALIDITY_MS,
});

/** etcdServer: as etcdPeer plus localhost, 127.0.0.1 and, on IPv6 nodes, ::1 for local clients. */
export const etcdServer = (node: EtcdNode): Template => {
  const ips = [...node.ipAddresses, '127.0.0.1'];
  if (ips.some((ip) => ip.includes(':'))) ips.push('::1');
  return { ...etcdPeer(node), dnsNames: [...node.dnsNames, 'localhost'], ipAddresses: ips };
};

/** etcdClient: etcd CA, clientAuth, 10 y; CN `talos` for Talos itself, `kube-apiserver` for the API server. */
export const etcdClient = (commonName: string): Template => ({
  commonName,
  keyUsage: ['digitalSignature', 'keyEncipherment'],
  extKeyUsage: ['clientAuth'],
  validityMs: ETCD_CERTIFICATE_VALIDITY_MS,
});

/** kubeAPIServer: Kubernetes CA, CN kube-apiserver, O kube-master, serverAuth, SANs of CertSANs(k8s), 1 y. */
export const kubeAPIServer = (sans: SANs): Template => ({
  commonName: 'kube-apiserver',
  organizations: ['kube-master'],
  dnsNames: sans.dnsNames,
  ipAddresses: sans.ipAddresses,
  keyUsage: ['digitalSignature', 'keyEncipherment'],
  extKeyUsage: ['serverAuth'],
  validityMs: KUBERNETES_CERTIFICATE_VALIDITY_MS,
});

const kubernetesClient = (commonName: string, organizations: readonly string[]): Template => ({
  commonName,
  organizations,
  keyUsage: ['digitalSignature', 'keyEncipherment'],
  extKeyUsage: ['clientAuth'],
  validityMs: KUBERNETES_CERTIFICATE_VALIDITY_MS,
});

/** apiServerKubeletClient: Kubernetes CA, CN apiserver-kubelet-client, O system:masters, 1 y. */
export const apiServerKubeletClient = (): Template =>
  kubernetesClient('apiserver-kubelet-client', ['system:masters']);

/** frontProxyClient: aggregator CA, CN front-proxy-client, no Organization, 1 y. */
export const frontProxyClient = (): Template => kubernetesClient('front-proxy-client', []);

/**
 * kubeconfigClient: Kubernetes CA client certificate for a kubeconfig, 1 y by default, starting 10 s in
 * the past as upstream's kubeconfig generator does. Controller-manager and scheduler use CN=O=their
 * `system:` name; Talos' own admin kubeconfig is CN talos:admin, O system:masters.
 */
export const kubeconfigClient = (
  commonName: string,
  organization: string,
  validityMs = KUBERNETES_CERTIFICATE_VALIDITY_MS,
): Template => ({
  ...kubernetesClient(commonName, [organization]),
  validityMs,
  backdateMs: KUBECONFIG_ALLOWED_TIME_SKEW_MS,
});

/** talosAPIClient: OS CA, the roles as Organizations and no CommonName, clientAuth, 1 y (talosconfig). */
export const talosAPIClient = (
  roles: readonly string[] = [Role.admin],
  validityMs = TALOS_API_CLIENT_VALIDITY_MS,
): Template => ({
  organizations: roles,
  keyUsage: ['digitalSignature'],
  extKeyUsage: ['clientAuth'],
  validityMs,
});

/**
 * trustdSigning: what trustd forces on a worker's apid CSR (OS CA): digitalSignature, serverAuth only,
 * Organizations dropped because they would grant API roles, 24 h.
 */
export const trustdSigning = (): SignRequestOptions => ({
  dropOrganizations: true,
  keyUsage: ['digitalSignature'],
  extKeyUsage: ['serverAuth'],
  validityMs: DEFAULT_CERTIFICATE_VALIDITY_MS,
});
