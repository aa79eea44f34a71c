// v1alpha1 `machine.*` rules (upstream's v1alpha1_validation.go, in Keel's words, with upstream's messages).
import type { MachineConfig } from '../types/v1alpha1/machine.js';
import { isControlPlane, type RuleContext } from './context.js';
import { validateDiskSelector } from './disk-selector.js';
import { validateDisks } from './disks.js';
import { validateEncryption } from './encryption.js';
import {
  isCertificate,
  isCIDR,
  isDNSName,
  isEnvName,
  isIPAddress,
  isPrivateKey,
  isSysctlName,
  isToken,
  parseDuration,
} from './formats.js';
import { validateAnnotations, validateLabels, validateTaints } from './labels.js';
import { validateLogging } from './logging.js';
import { validateNetwork } from './network.js';

/** effectiveType reads `join` and the empty string as worker, as upstream does; unknown values pass through. */
export const effectiveType = (t: string | undefined): string => (t === 'join' || !t ? 'worker' : t);

const knownTypes = ['init', 'controlplane', 'worker'];
const roles = ['os:admin', 'os:operator', 'os:reader', 'os:etcd:backup', 'os:impersonator'];
// kubelet settings machined computes itself; extraConfig may not override them
const kubeletProtected = [
  'apiVersion',
  'authentication',
  'authorization',
  'cgroupRoot',
  'kind',
  'rotateCertificates',
  'staticPodPath',
  'staticPodURL',
  'staticPodURLHeader',
];

export function validateMachine(m: MachineConfig, ctx: RuleContext): void {
  const t = effectiveType(m.type);
  if (!knownTypes.includes(t))
    ctx.error('machine.type', `unknown machine type ${JSON.stringify(m.type ?? '')}`);
  else if (t !== m.type)
    ctx.warn(
      'machine.type',
      `use ${JSON.stringify(t)} instead of ${JSON.stringify(m.type ?? '')} for machine type`,
    );

  if (!m.token) ctx.error('machine.token', 'trustd token is invalid: token is required');
  else if (!isToken(m.token))
    ctx.error('machine.token', 'trustd token is invalid: expected [a-z0-9]{6}.[a-z0-9]{16}');

  validateCA(m, ctx);
  m.certSANs?.forEach((s, i) => {
    if (s.trim() === '') ctx.error(`machine.certSANs[${i}]`, 'certificate SAN must not be empty');
  });
  validateKubelet(m, ctx);
  if (m.network) validateNetwork(m.network, ctx);
  validateInstall(m, ctx);
  m.files?.forEach((f, i) => {
    const at = `machine.files[${i}]`;
    if (!f.path?.startsWith('/'))
      ctx.error(`${at}.path`, `file path ${JSON.stringify(f.path ?? '')} must be absolute`);
    if (!['create', 'append', 'overwrite'].includes(f.op ?? ''))
      ctx.error(
        `${at}.op`,
        `invalid file op ${JSON.stringify(f.op ?? '')}, expected create, append or overwrite`,
      );
    if (f.permissions !== undefined && f.permissions > 0o7777)
      ctx.error(`${at}.permissions`, `invalid file mode 0o${f.permissions.toString(8)}`);
  });
  for (const k of Object.keys(m.env ?? {}))
    if (!isEnvName(k))
      ctx.error(`machine.env.${k}`, `invalid environment variable name ${JSON.stringify(k)}`);
  if (m.time?.bootTimeout !== undefined && parseDuration(m.time.bootTimeout) === undefined)
    ctx.error('machine.time.bootTimeout', `invalid duration ${JSON.stringify(m.time.bootTimeout)}`);
  m.time?.servers?.forEach((s, i) => {
    if (s.trim() === '') ctx.error(`machine.time.servers[${i}]`, 'time server must not be empty');
  });
  for (const k of Object.keys(m.sysctls ?? {}))
    if (!isSysctlName(k)) ctx.error(`machine.sysctls.${k}`, `invalid sysctl name ${JSON.stringify(k)}`);
  validateFeatures(m, ctx);
  const sde = m.systemDiskEncryption;
  if (sde?.state) validateEncryption(sde.state, 'machine.systemDiskEncryption.state', ctx);
  if (sde?.ephemeral) validateEncryption(sde.ephemeral, 'machine.systemDiskEncryption.ephemeral', ctx);
  if (m.disks) validateDisks(m.disks, ctx);
  if (m.logging?.destinations) validateLogging(m.logging.destinations, 'machine.logging.destinations', ctx);
  if (m.nodeLabels) validateLabels(m.nodeLabels, 'machine.nodeLabels', ctx);
  if (m.nodeAnnotations) validateAnnotations(m.nodeAnnotations, 'machine.nodeAnnotations', ctx);
  if (m.nodeTaints) validateTaints(m.nodeTaints, 'machine.nodeTaints', ctx);
}

function validateCA(m: MachineConfig, ctx: RuleContext): void {
  const ca = m.ca;
  if (!ca?.crt && !m.acceptedCAs?.length)
    ctx.error(
      'machine.ca',
      'issuing CA or some accepted CAs are required (.machine.ca, machine.acceptedCAs)',
    );
  if (ca?.crt && !isCertificate(ca.crt))
    ctx.error('machine.ca.crt', 'certificate is invalid: not a base64 PEM certificate');
  if (isControlPlane(ctx) && !ca?.key)
    ctx.error('machine.ca.key', 'issuing CA key is required for controlplane nodes (.machine.ca.key)');
  if (!isControlPlane(ctx) && ca?.key)
    ctx.error(
      'machine.ca.key',
      'issuing Talos API CA key is not allowed on non-controlplane nodes (.machine.ca)',
    );
  if (ca?.key && !isPrivateKey(ca.key))
    ctx.error('machine.ca.key', 'key is invalid: not a base64 PEM private key');
  m.acceptedCAs?.forEach((c, i) => {
    if (!c.crt || !isCertificate(c.crt))
      ctx.error(`machine.acceptedCAs[${i}].crt`, 'certificate is invalid: not a base64 PEM certificate');
  });
}

function validateKubelet(m: MachineConfig, ctx: RuleContext): void {
  const k = m.kubelet;
  if (!k) return;
  // the image's version is kubernetes-version.ts' to judge, with the control plane's
  k.clusterDNS?.forEach((ip, i) => {
    if (!isIPAddress(ip)) ctx.error(`machine.kubelet.clusterDNS[${i}]`, `${ip} is not an IP address`);
  });
  k.nodeIP?.validSubnets?.forEach((s, i) => {
    const subnet = s.replace(/^!/, '');
    if (!isCIDR(subnet) && !isIPAddress(subnet))
      ctx.error(
        `machine.kubelet.nodeIP.validSubnets[${i}]`,
        `kubelet nodeIP subnet is not valid: ${JSON.stringify(subnet)}`,
      );
  });
  // extraConfig is free-form: only a mapping can carry the protected fields
  const extra = typeof k.extraConfig === 'object' && k.extraConfig !== null ? k.extraConfig : {};
  for (const field of kubeletProtected)
    if (Object.hasOwn(extra, field))
      ctx.error(
        `machine.kubelet.extraConfig.${field}`,
        `kubelet configuration field ${JSON.stringify(field)} can't be overridden`,
      );
  k.extraMounts?.forEach((mnt, i) => {
    if (!mnt.destination?.startsWith('/'))
      ctx.error(
        `machine.kubelet.extraMounts[${i}].destination`,
        'mount destination must be an absolute path',
      );
  });
}

function validateInstall(m: MachineConfig, ctx: RuleContext): void {
  const inst = m.install;
  // v1.13 semantics: a metal node installs itself, so it needs to know where
  if (ctx.mode === 'metal') {
    if (!inst) ctx.error('machine.install', 'install instructions are required in "metal" mode');
    else if (!inst.disk && !inst.diskSelector)
      ctx.error('machine.install.disk', 'either install disk or diskSelector should be defined');
  }
  if (!inst) return;
  if (inst.disk && !inst.disk.startsWith('/dev/'))
    ctx.error('machine.install.disk', `install disk ${JSON.stringify(inst.disk)} must be a /dev path`);
  if (ctx.mode === 'metal' && inst.image === '')
    ctx.error('machine.install.image', 'an install image is required');
  inst.extraKernelArgs?.forEach((a, i) => {
    if (a.trim() === '')
      ctx.error(`machine.install.extraKernelArgs[${i}]`, 'kernel argument must not be empty');
  });
  if (inst.extraKernelArgs?.length && inst.grubUseUKICmdline)
    ctx.error(
      'machine.install.extraKernelArgs',
      "install.extraKernelArgs and install.grubUseUKICmdline can't be used together",
    );
  if (inst.diskSelector) validateDiskSelector(inst.diskSelector, 'machine.install.diskSelector', ctx);
  const images = new Set<string>();
  inst.extensions?.forEach((e, i) => {
    const image = e.image ?? '';
    if (images.has(image))
      ctx.error(
        `machine.install.extensions[${i}].image`,
        `duplicate system extension ${JSON.stringify(image)}`,
      );
    images.add(image);
  });
  if (images.size > 0)
    ctx.warn(
      'machine.install.extensions',
      '.machine.install.extensions is deprecated, please see https://docs.siderolabs.com/talos/latest/platform-specific-installations/boot-assets',
    );
  if (ctx.mode === 'container') ctx.warn('machine.install', 'install section is ignored in "container" mode');
}

function validateFeatures(m: MachineConfig, ctx: RuleContext): void {
  const f = m.features;
  if (!f) return;
  const port = f.kubePrism?.port;
  if (port !== undefined && (port < 1 || port > 65535))
    ctx.error('machine.features.kubePrism.port', `port ${port} is out of range 1-65535`);
  if (f.kubePrism?.enabled && port === undefined)
    ctx.error('machine.features.kubePrism.port', 'KubePrism port is required when KubePrism is enabled');
  const algo = f.nodeAddressSortAlgorithm;
  if (algo !== undefined && algo !== 'v1' && algo !== 'v2')
    ctx.error(
      'machine.features.nodeAddressSortAlgorithm',
      `invalid node address sort algorithm ${JSON.stringify(algo)}, expected v1 or v2`,
    );
  if (f.hostDNS?.forwardKubeDNSToHost && !f.hostDNS.enabled)
    ctx.error(
      'machine.features.hostDNS.forwardKubeDNSToHost',
      'feature hostDNS.forwardKubeDNSToHost requires hostDNS.enabled to be true',
    );
  if (ctx.mode === 'container' && (!f.hostDNS?.enabled || !f.hostDNS.forwardKubeDNSToHost))
    ctx.warn(
      'machine.features.hostDNS',
      'hostDNS with forwardKubeDNSToHost should be enabled in "container" mode',
    );
  const access = f.kubernetesTalosAPIAccess;
  access?.allowedRoles?.forEach((r, i) => {
    if (!roles.includes(r))
      ctx.error(
        `machine.features.kubernetesTalosAPIAccess.allowedRoles[${i}]`,
        `invalid role ${JSON.stringify(r)} in allowed roles for Kubernetes Talos API Access`,
      );
  });
  access?.allowedKubernetesNamespaces?.forEach((ns, i) => {
    if (!isDNSName(ns) || ns.includes('.'))
      ctx.error(
        `machine.features.kubernetesTalosAPIAccess.allowedKubernetesNamespaces[${i}]`,
        `invalid namespace ${JSON.stringify(ns)}`,
      );
  });
  if (access?.enabled && !isControlPlane(ctx))
    ctx.error(
      'machine.features.kubernetesTalosAPIAccess',
      'feature Kubernetes Talos API Access can only be enabled on control plane machines',
    );
}
