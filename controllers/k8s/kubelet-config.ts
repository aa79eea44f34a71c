// k8s.KubeletConfigController: KubeletConfig `kubelet` from the machine config (machine.kubelet, the
// cluster's network and scheduling settings) and the static pod server's URL, as upstream's: none for a
// config without a machine or a cluster section, and none until the static pod server listens.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import {
  type ArgValues,
  KUBELET_ID,
  KubeletConfig,
  type KubeletConfigSpec,
  STATIC_POD_SERVER_STATUS_ID,
  StaticPodServerStatus,
} from '../../resources/k8s/index.js';
import { type Config, v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { nthIP, parsePrefix } from '../network/internal/ip.js';
import { DEFAULT_SERVICE_CIDR } from './address-filter.js';
import { imageOr } from './internal/control-plane.js';
import { K8sConfigError } from './internal/errors.js';

export const KUBELET_CONFIG_CONTROLLER = 'k8s.KubeletConfigController';
export const DEFAULT_DNS_DOMAIN = 'cluster.local';
export const DEFAULT_KUBELET_IMAGE = imageOr(undefined, 'ghcr.io/siderolabs/kubelet');

/** dnsServiceIPs are the cluster DNS Service's IPs: the tenth address of each service range. */
export function dnsServiceIPs(serviceSubnets: readonly string[]): string[] {
  return serviceSubnets.map((cidr) => {
    const p = parsePrefix(cidr);
    const ip = p && nthIP(p, 10);
    if (!ip)
      throw new K8sConfigError(
        `cluster.network.serviceSubnets: "${cidr}" holds no DNS service IP (its tenth address)`,
      );
    return ip;
  });
}

/** kubeletConfigOf is undefined for a config without a machine or a cluster section. */
export function kubeletConfigOf(cfg: Config, staticPodListURL: string): KubeletConfigSpec | undefined {
  const v1 = v1alpha1Of(cfg);
  if (!v1?.machine || !v1.cluster) return undefined;
  const k = v1.machine.kubelet ?? {};
  const net = v1.cluster.network ?? {};
  const extraArgs: Record<string, ArgValues> = {};
  for (const [name, value] of Object.entries(k.extraArgs ?? {})) extraArgs[name] = { values: [value] };
  return {
    image: k.image || DEFAULT_KUBELET_IMAGE,
    clusterDNS: k.clusterDNS?.length
      ? [...k.clusterDNS]
      : dnsServiceIPs(net.serviceSubnets?.length ? net.serviceSubnets : [DEFAULT_SERVICE_CIDR]),
    clusterDomain: net.dnsDomain || DEFAULT_DNS_DOMAIN,
    ...(Object.keys(extraArgs).length ? { extraArgs } : {}),
    ...(k.extraMounts?.length
      ? {
          extraMounts: k.extraMounts.map((m) => ({
            destination: m.destination ?? '',
            ...(m.type ? { type: m.type } : {}),
            ...(m.source ? { source: m.source } : {}),
            ...(m.options?.length ? { options: [...m.options] } : {}),
          })),
        }
      : {}),
    ...(k.extraConfig && Object.keys(k.extraConfig).length
      ? { extraConfig: structuredClone(k.extraConfig) }
      : {}),
    cloudProviderExternal: v1.cluster.externalCloudProvider?.enabled === true,
    defaultRuntimeSeccompEnabled: k.defaultRuntimeSeccompProfileEnabled === true,
    skipNodeRegistration: k.skipNodeRegistration === true,
    staticPodListURL,
    disableManifestsDirectory: k.disableManifestsDirectory === true,
    enableFSQuotaMonitoring: v1.machine.features?.diskQuotaSupport === true,
    ...(k.credentialProviderConfig && Object.keys(k.credentialProviderConfig).length
      ? { credentialProviderConfig: structuredClone(k.credentialProviderConfig) }
      : {}),
    allowSchedulingOnControlPlane: v1.cluster.allowSchedulingOnControlPlanes === true,
  };
}

export const KubeletConfigController = defineController({
  name: KUBELET_CONFIG_CONTROLLER,
  inputs: [
    input(MachineConfig, { id: MACHINE_CONFIG_ID }),
    input(StaticPodServerStatus, { id: STATIC_POD_SERVER_STATUS_ID }),
  ],
  outputs: [output(KubeletConfig, 'exclusive')],
  async run(rt, { signal, logger }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const server = await rt.getOrNull(StaticPodServerStatus, STATIC_POD_SERVER_STATUS_ID, { signal });
      if (!server) continue; // the kubelet cannot start without its static pods' URL
      let next: KubeletConfigSpec | undefined;
      try {
        next = cfg ? kubeletConfigOf(configOf(cfg.spec), server.spec.url) : undefined;
      } catch (e) {
        if (!(e instanceof K8sConfigError)) throw e;
        logger.error('no kubelet config', { error: e.message });
        continue;
      }
      rt.startTrackingOutputs();
      if (next) await rt.modify(KubeletConfig, KUBELET_ID, () => next, { signal });
      await rt.cleanupOutputs(KubeletConfig);
      rt.resetBackoff();
    }
  },
});
