// v1alpha1 `cluster.*` rules: endpoint, network and CNI, tokens, CAs, control plane components, etcd, discovery.
import type { ClusterConfig } from '../types/v1alpha1/cluster.js';
import { validateAPIServer, validateResources } from './apiserver.js';
import { validateClusterSubnets } from './cluster-subnets.js';
import { isControlPlane, type RuleContext } from './context.js';
import {
  endpointProblem,
  isBase64Key32,
  isCertificate,
  isCIDR,
  isIPAddress,
  isPrivateKey,
  isToken,
  isURL,
  parseDuration,
} from './formats.js';

const q = JSON.stringify;
const cnis = ['flannel', 'custom', 'none'];
const proxyModes = ['iptables', 'ipvs', 'nftables'];
const BAD_CERT = 'certificate is invalid: not a base64 PEM certificate';
const BAD_KEY = 'key is invalid: not a base64 PEM private key';
// etcd arguments machined computes itself; extraArgs may not override them
const etcdReserved = [
  'name',
  'data-dir',
  'initial-cluster-state',
  'listen-peer-urls',
  'listen-client-urls',
  'cert-file',
  'key-file',
  'trusted-ca-file',
  'peer-client-cert-auth',
  'peer-cert-file',
  'peer-trusted-ca-file',
  'peer-key-file',
  'client-cert-auth',
];

const isSubnetOrAddress = (s: string): boolean => {
  const v = s.replace(/^!/, '');
  return isCIDR(v) || isIPAddress(v);
};
// upstream's rule for dnsDomain: labels of letters, digits, '_' and '-', an optional trailing dot
const isClusterDNSName = (s: string): boolean =>
  s.replaceAll('.', '').length <= 255 &&
  /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62}(\.[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62})*[._]?$/.test(s);

export function validateCluster(c: ClusterConfig, ctx: RuleContext): void {
  const cp = isControlPlane(ctx);
  validateEndpoint(c, ctx);
  if (c.clusterName !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(c.clusterName))
    ctx.error('cluster.clusterName', `invalid cluster name ${q(c.clusterName)}`);
  if (c.id !== undefined && !isBase64Key32(c.id))
    ctx.error('cluster.id', 'cluster id must be base64 of 32 bytes');
  if (c.secret !== undefined && !isBase64Key32(c.secret))
    ctx.error('cluster.secret', 'cluster secret must be base64 of 32 bytes');
  validateClusterNetwork(c, ctx);
  if (c.token !== undefined && !isToken(c.token))
    ctx.error('cluster.token', 'bootstrap token is invalid: expected [a-z0-9]{6}.[a-z0-9]{16}');
  if (cp && !c.token) ctx.error('cluster.token', 'bootstrap token is required on controlplane nodes');
  for (const k of ['secretboxEncryptionSecret', 'aescbcEncryptionSecret'] as const)
    if (c[k] !== undefined && !isBase64Key32(c[k]!))
      ctx.error(`cluster.${k}`, 'encryption secret must be base64 of 32 bytes');
  validateCAs(c, ctx);
  validateComponents(c, ctx);
  validateEtcd(c, ctx);
  validateDiscovery(c, ctx);
  const seen = new Set<string>();
  c.inlineManifests?.forEach((m, i) => {
    const at = `cluster.inlineManifests[${i}].name`;
    if (!m.name?.trim()) ctx.error(at, "inline manifest name can't be empty");
    else if (seen.has(m.name)) ctx.error(at, `inline manifest name ${q(m.name)} is duplicate`);
    if (m.name) seen.add(m.name);
  });
  const ecp = c.externalCloudProvider;
  if (ecp && !ecp.enabled && ecp.manifests?.length)
    ctx.error(
      'cluster.externalCloudProvider',
      'external cloud provider is disabled, but manifests are provided',
    );
  else
    ecp?.manifests?.forEach((u, i) => {
      const problem = endpointProblem(u);
      if (problem)
        ctx.error(
          `cluster.externalCloudProvider.manifests[${i}]`,
          `invalid external cloud provider manifest url ${q(u)}: ${problem}`,
        );
    });
  const life = c.adminKubeconfig?.certLifetime;
  if (life !== undefined && parseDuration(life) === undefined)
    ctx.error('cluster.adminKubeconfig.certLifetime', `invalid duration ${q(life)}`);
  if (c.allowSchedulingOnMasters !== undefined)
    ctx.warn(
      'cluster.allowSchedulingOnMasters',
      'allowSchedulingOnMasters is deprecated, use allowSchedulingOnControlPlanes',
    );
}

function validateEndpoint(c: ClusterConfig, ctx: RuleContext): void {
  if (!c.controlPlane?.endpoint) {
    ctx.error(
      c.controlPlane ? 'cluster.controlPlane.endpoint' : 'cluster.controlPlane',
      'cluster controlplane endpoint is required',
    );
    return;
  }
  const ep = c.controlPlane.endpoint;
  if (!isURL(ep, ['https', 'http']))
    ctx.error(
      'cluster.controlPlane.endpoint',
      `invalid controlplane endpoint: ${q(ep)} is not an http(s) URL`,
    );
  const port = c.controlPlane.localAPIServerPort;
  if (port !== undefined && (port < 1 || port > 65535))
    ctx.error('cluster.controlPlane.localAPIServerPort', `port ${port} is out of range 1-65535`);
}

function validateClusterNetwork(c: ClusterConfig, ctx: RuleContext): void {
  const n = c.network;
  if (!n) return;
  if (n.dnsDomain && !isClusterDNSName(n.dnsDomain))
    ctx.error('cluster.network.dnsDomain', `${q(n.dnsDomain)} is not a valid DNS name`);
  // upstream checks the CNI on control plane nodes only: they are the ones that deploy it
  const cni = n.cni;
  if (cni && isControlPlane(ctx)) {
    validateCNI(cni, ctx);
  }
  validateClusterSubnets(n, ctx);
}

/** validateCNI applies upstream's per-driver rules: only custom takes URLs, only flannel its options. */
function validateCNI(cni: NonNullable<NonNullable<ClusterConfig['network']>['cni']>, ctx: RuleContext): void {
  const at = 'cluster.network.cni';
  const name = cni.name || 'flannel';
  if (!cnis.includes(name)) {
    ctx.error(`${at}.name`, 'cni name should be one of ["flannel", "custom", "none"]');
    return;
  }
  if (name === 'custom' && !cni.urls?.length)
    ctx.warn(`${at}.urls`, '"urls" field should not be empty for "custom" CNI');
  if (name !== 'custom' && cni.urls?.length)
    ctx.error(`${at}.urls`, `"urls" field should be empty for ${q(name)} CNI`);
  if (name === 'flannel') return;
  if (cni.flannel?.extraArgs?.length)
    ctx.error(`${at}.flannel.extraArgs`, `"flanneldExtraArgs" field should be empty for ${q(name)} CNI`);
  if (cni.flannel?.kubeNetworkPoliciesEnabled)
    ctx.error(
      `${at}.flannel.kubeNetworkPoliciesEnabled`,
      `"flannelKubeNetworkPoliciesEnabled" should not be enabled for ${q(name)} CNI`,
    );
  if (name === 'custom')
    cni.urls?.forEach((u, i) => {
      const problem = endpointProblem(u);
      if (problem) ctx.error(`${at}.urls[${i}]`, problem);
    });
}

function validateCAs(c: ClusterConfig, ctx: RuleContext): void {
  const cp = isControlPlane(ctx);
  if (!c.ca?.crt && !c.acceptedCAs?.length)
    ctx.error('cluster.ca', 'Kubernetes CA certificate is required (.cluster.ca)');
  if (c.ca?.crt && !isCertificate(c.ca.crt)) ctx.error('cluster.ca.crt', BAD_CERT);
  if (cp && !c.ca?.key)
    ctx.error(
      'cluster.ca.key',
      'issuing Kubernetes CA key is required for controlplane nodes (.cluster.ca.key)',
    );
  if (!cp && c.ca?.key)
    ctx.error('cluster.ca.key', 'cluster CA key is not allowed on non-controlplane nodes (.cluster.ca)');
  if (c.ca?.key && !isPrivateKey(c.ca.key)) ctx.error('cluster.ca.key', BAD_KEY);
  c.acceptedCAs?.forEach((a, i) => {
    if (!a.crt || !isCertificate(a.crt)) ctx.error(`cluster.acceptedCAs[${i}].crt`, BAD_CERT);
  });
  if (c.aggregatorCA?.crt && !isCertificate(c.aggregatorCA.crt))
    ctx.error('cluster.aggregatorCA.crt', BAD_CERT);
  if (c.aggregatorCA?.key && !isPrivateKey(c.aggregatorCA.key))
    ctx.error('cluster.aggregatorCA.key', BAD_KEY);
  if (c.serviceAccount?.key !== undefined && !isPrivateKey(c.serviceAccount.key))
    ctx.error('cluster.serviceAccount.key', BAD_KEY);
}

function validateComponents(c: ClusterConfig, ctx: RuleContext): void {
  c.apiServer?.certSANs?.forEach((s, i) => {
    if (s.trim() === '') ctx.error(`cluster.apiServer.certSANs[${i}]`, 'certificate SAN must not be empty');
  });
  const names = new Set<string>();
  c.apiServer?.admissionControl?.forEach((p, i) => {
    const at = `cluster.apiServer.admissionControl[${i}].name`;
    if (!p.name) ctx.error(at, 'admission plugin name is required');
    else if (names.has(p.name)) ctx.error(at, `duplicate admission plugin ${q(p.name)}`);
    if (p.name) names.add(p.name);
  });
  for (const comp of ['apiServer', 'controllerManager', 'scheduler'] as const) {
    c[comp]?.extraVolumes?.forEach((v, i) => {
      const at = `cluster.${comp}.extraVolumes[${i}]`;
      if (!v.hostPath?.startsWith('/')) ctx.error(`${at}.hostPath`, 'hostPath must be an absolute path');
      if (!v.mountPath?.startsWith('/')) ctx.error(`${at}.mountPath`, 'mountPath must be an absolute path');
    });
  }
  if (c.apiServer) validateAPIServer(c.apiServer, ctx);
  if (c.controllerManager)
    validateResources(c.controllerManager, 'cluster.controllerManager', 'controller-manager', ctx);
  if (c.scheduler) validateResources(c.scheduler, 'cluster.scheduler', 'scheduler', ctx);
  if (c.proxy?.mode !== undefined && !proxyModes.includes(c.proxy.mode))
    ctx.error(
      'cluster.proxy.mode',
      `invalid proxy mode ${q(c.proxy.mode)}, expected iptables, ipvs or nftables`,
    );
}

function validateEtcd(c: ClusterConfig, ctx: RuleContext): void {
  const e = c.etcd;
  if (!isControlPlane(ctx)) {
    if (e) ctx.error('cluster.etcd', 'etcd config is only allowed on control plane machines');
    return;
  }
  if (!e) {
    ctx.error('cluster.etcd', 'etcd config with its CA is required on control plane machines');
    return;
  }
  if (!e.ca?.crt) ctx.error('cluster.etcd.ca', 'key/cert combination should not be empty');
  else if (!isCertificate(e.ca.crt)) ctx.error('cluster.etcd.ca.crt', BAD_CERT);
  if (e.ca?.crt && !e.ca.key)
    ctx.error('cluster.etcd.ca.key', 'etcd CA key is required on control plane machines');
  for (const k of Object.keys(e.extraArgs ?? {}))
    if (etcdReserved.includes(k))
      ctx.error(`cluster.etcd.extraArgs.${k}`, `etcd argument ${q(k)} cannot be overridden`);
  if (e.subnet && e.advertisedSubnets?.length)
    ctx.error('cluster.etcd.subnet', "etcd subnet can't be set when advertised subnets are set");
  e.advertisedSubnets?.forEach((s, i) => {
    if (!isSubnetOrAddress(s))
      ctx.error(
        `cluster.etcd.advertisedSubnets[${i}]`,
        `etcd advertised subnet is not valid: ${q(s.replace(/^!/, ''))}`,
      );
  });
  e.listenSubnets?.forEach((s, i) => {
    if (!isSubnetOrAddress(s))
      ctx.error(
        `cluster.etcd.listenSubnets[${i}]`,
        `etcd listen subnet is not valid: ${q(s.replace(/^!/, ''))}`,
      );
  });
}

function validateDiscovery(c: ClusterConfig, ctx: RuleContext): void {
  const service = c.discovery?.registries?.service;
  if (!c.discovery?.enabled || service?.disabled) return;
  if (!c.id) ctx.error('cluster.id', 'cluster discovery service requires .cluster.id');
  if (!c.secret) ctx.error('cluster.secret', 'cluster discovery service requires .cluster.secret');
  const ep = service?.endpoint;
  if (ep === undefined) return;
  if (!isURL(ep, ['https', 'http']))
    ctx.error(
      'cluster.discovery.registries.service.endpoint',
      `cluster discovery service registry endpoint is invalid: ${q(ep)}`,
    );
  else if (!['', '/'].includes(new URL(ep).pathname))
    ctx.error(
      'cluster.discovery.registries.service.endpoint',
      'cluster discovery service path should be empty',
    );
}
