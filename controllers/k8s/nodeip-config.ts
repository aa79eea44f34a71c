// k8s.NodeIPConfigController: NodeIPConfig `kubelet` — the subnets the kubelet's node IP comes from
// (machine.kubelet.nodeIP.validSubnets, or any address of each service range's family, the primary family
// first, as upstream) and those it never comes from: the pod and service ranges, and virtual IPs.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { KUBELET_ID, NodeIPConfig, type NodeIPConfigSpec } from '../../resources/k8s/index.js';
import { type Config, v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { parsePrefix } from '../network/internal/ip.js';
import { DEFAULT_POD_CIDR, DEFAULT_SERVICE_CIDR } from './address-filter.js';
import { K8sConfigError } from './internal/errors.js';

export const NODEIP_CONFIG_CONTROLLER = 'k8s.NodeIPConfigController';

/** nodeIPConfigOf is undefined for a config without a machine or a cluster section. */
export function nodeIPConfigOf(cfg: Config): NodeIPConfigSpec | undefined {
  const v1 = v1alpha1Of(cfg);
  if (!v1?.machine || !v1.cluster) return undefined;
  const net = v1.cluster.network ?? {};
  const pods = net.podSubnets?.length ? net.podSubnets : [DEFAULT_POD_CIDR];
  const services = net.serviceSubnets?.length ? net.serviceSubnets : [DEFAULT_SERVICE_CIDR];
  let valid = v1.machine.kubelet?.nodeIP?.validSubnets ?? [];
  if (valid.length === 0)
    valid = services.map((cidr) => {
      const p = parsePrefix(cidr);
      if (!p) throw new K8sConfigError(`cluster.network.serviceSubnets: "${cidr}" is not a subnet`);
      return cidr.includes(':') ? '::/0' : '0.0.0.0/0';
    });
  const vips: string[] = [];
  for (const device of v1.machine.network?.interfaces ?? []) {
    if (device.vip?.ip) vips.push(device.vip.ip);
    for (const vlan of device.vlans ?? []) if (vlan.vip?.ip) vips.push(vlan.vip.ip);
  }
  return { validSubnets: [...valid], excludeSubnets: [...pods, ...services, ...vips] };
}

export const NodeIPConfigController = defineController({
  name: NODEIP_CONFIG_CONTROLLER,
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(NodeIPConfig, 'exclusive')],
  async run(rt, { signal, logger }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      let next: NodeIPConfigSpec | undefined;
      try {
        next = cfg ? nodeIPConfigOf(configOf(cfg.spec)) : undefined;
      } catch (e) {
        if (!(e instanceof K8sConfigError)) throw e;
        logger.error('no node IP config', { error: e.message });
        continue; // the last good one stays
      }
      rt.startTrackingOutputs();
      if (next) await rt.modify(NodeIPConfig, KUBELET_ID, () => next, { signal });
      await rt.cleanupOutputs(NodeIPConfig);
      rt.resetBackoff();
    }
  },
});
