// network.AddressConfigController: AddressSpecs of the default, cmdline and configuration layers.
import { AddressFlag, Family, familyOfIP, Scope } from '../../resources/network/address-enums.js';
import { AddressSpec, type AddressSpecSpec } from '../../resources/network/address-spec.js';
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import { addressID } from '../../resources/network/ids.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import {
  type ConfigInputs,
  configInputs,
  readConfigInputs,
  typedLinks,
  vlanLinkName,
  withHostPrefix,
} from './internal/inputs.js';
import { parsePrefix } from './internal/ip.js';

export interface AddressConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
  /** container mode leaves lo's addresses to the container runtime */
  readonly containerMode?: boolean;
}

/** addressConfigController writes the wanted addresses into network-config, one copy per layer. */
export function addressConfigController(opts: AddressConfigOptions = {}): Controller {
  return defineController({
    name: 'network.AddressConfigController',
    inputs: configInputs(),
    outputs: [output(AddressSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        const inputs = await readConfigInputs(rt, opts.cmdline, logger, signal);
        for (const a of addressesOf(inputs, opts.containerMode ?? false))
          await rt.modify(AddressSpec, layeredID(a.configLayer, addressID(a.linkName, a.address)), () => a, {
            namespace: NETWORK_CONFIG_NAMESPACE,
            signal,
          });
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: AddressSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

const address = (
  prefix: string,
  linkName: string,
  configLayer: ConfigLayer,
  priority = 0,
): AddressSpecSpec => ({
  address: prefix,
  linkName,
  family: familyOfIP(prefix),
  scope: Scope.Global,
  flags: AddressFlag.Permanent,
  announceWithARP: false,
  priority,
  configLayer,
});

/** addressesOf: lo's 127.0.0.1/8, the ip= addresses, the v1alpha1 interfaces' and the link documents'. */
export function addressesOf(inputs: ConfigInputs, containerMode: boolean): AddressSpecSpec[] {
  const out: AddressSpecSpec[] = [];
  if (!containerMode)
    out.push({
      ...address('127.0.0.1/8', 'lo', ConfigLayer.Default),
      family: Family.Inet4,
      scope: Scope.Host,
    });
  for (const lc of inputs.cmdline.linkConfigs)
    if (lc.address && !inputs.ignored.has(lc.linkName))
      out.push(address(lc.address, lc.linkName, ConfigLayer.Cmdline));
  const cfgAddress = (a: string, link: string, priority = 0) => {
    const p = parsePrefix(withHostPrefix(a));
    if (p) out.push(address(`${p.ip}/${p.bits}`, link, ConfigLayer.MachineConfiguration, priority));
  };
  for (const d of inputs.devices) {
    for (const a of [...(d.addresses ?? []), ...(d.cidr ? [d.cidr] : [])]) cfgAddress(a, d.interface);
    for (const v of d.vlans ?? [])
      for (const a of [...(v.addresses ?? []), ...(v.cidr ? [v.cidr] : [])])
        cfgAddress(a, vlanLinkName(d.interface, v.vlanId ?? 0));
  }
  for (const l of typedLinks(inputs.cfg))
    for (const a of l.spec.addresses ?? [])
      if (a.address) cfgAddress(a.address, l.name, a.routePriority ?? 0);
  return out;
}
