// network.OperatorConfigController: DHCP OperatorSpecs of the default, cmdline and configuration layers.
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import { DEFAULT_ROUTE_METRIC, operatorID } from '../../resources/network/ids.js';
import {
  ClientIdentifier,
  ClientIdentifiers,
  Operator,
  OperatorSpec,
  type OperatorSpecSpec,
  operatorSpecZero,
} from '../../resources/network/operator-spec.js';
import { accessors } from '../../src/config/index.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import {
  type ConfigInputs,
  configInputs,
  readConfigInputs,
  runDefaultDHCP,
  vlanLinkName,
} from './internal/inputs.js';
import { allLinkNames } from './internal/links.js';

export interface OperatorConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
}

/** operatorConfigController writes the wanted DHCP operators into network-config, one per layer and link. */
export function operatorConfigController(opts: OperatorConfigOptions = {}): Controller {
  return defineController({
    name: 'network.OperatorConfigController',
    inputs: configInputs(),
    outputs: [output(OperatorSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        for (const o of operatorsOf(await readConfigInputs(rt, opts.cmdline, logger, signal)))
          await rt.modify(
            OperatorSpec,
            layeredID(o.configLayer, operatorID(o.operator, o.linkName)),
            () => o,
            {
              namespace: NETWORK_CONFIG_NAMESPACE,
              signal,
            },
          );
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: OperatorSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

/** dhcp4 is a DHCPv4 operator that waits for its link to be up. */
export function dhcp4(
  linkName: string,
  configLayer: ConfigLayer,
  edit: (o: OperatorSpecSpec) => void = () => {},
): OperatorSpecSpec {
  const o = operatorSpecZero();
  o.operator = Operator.DHCP4;
  o.linkName = linkName;
  o.requireUp = true;
  o.dhcp4.routeMetric = DEFAULT_ROUTE_METRIC;
  o.configLayer = configLayer;
  edit(o);
  return o;
}

/**
 * operatorsOf: DHCP on the ip= links that ask for it, on the configured links, and (when the config
 * has no link or DHCP documents) DHCPv4 on every physical link nothing else configures.
 */
export function operatorsOf(inputs: ConfigInputs): OperatorSpecSpec[] {
  const out: OperatorSpecSpec[] = [];
  const ignored = new Set([...inputs.cmdline.ignoreInterfaces, ...inputs.ignored]);
  const configured = new Set(ignored);
  for (const lc of inputs.cmdline.linkConfigs) {
    configured.add(lc.linkName);
    if (lc.dhcp && !ignored.has(lc.linkName)) out.push(dhcp4(lc.linkName, ConfigLayer.Cmdline));
  }
  for (const d of inputs.devices) {
    configured.add(d.interface);
    for (const m of [...(d.bond?.interfaces ?? []), ...(d.bridge?.interfaces ?? [])]) configured.add(m);
    const legacy = (
      link: string,
      dhcp: boolean | undefined,
      metric: number | undefined,
      ipv4: boolean | undefined,
    ) => {
      if (dhcp && ipv4 !== false)
        out.push(
          dhcp4(link, ConfigLayer.MachineConfiguration, (o) => {
            o.dhcp4.routeMetric = metric || DEFAULT_ROUTE_METRIC;
          }),
        );
    };
    legacy(d.interface, d.dhcp, d.dhcpOptions?.routeMetric, d.dhcpOptions?.ipv4);
    for (const v of d.vlans ?? [])
      legacy(
        vlanLinkName(d.interface, v.vlanId ?? 0),
        v.dhcp,
        v.dhcpOptions?.routeMetric,
        v.dhcpOptions?.ipv4,
      );
  }
  if (inputs.cfg)
    for (const s of accessors(inputs.cfg).dhcp4()) {
      if (s.link === undefined || inputs.devices.some((d) => d.interface === s.link)) continue; // v1alpha1: above
      out.push(
        dhcp4(s.link, ConfigLayer.MachineConfiguration, (o) => {
          o.dhcp4.routeMetric = s.routeMetric ?? DEFAULT_ROUTE_METRIC;
          o.dhcp4.skipHostnameRequest = s.ignoreHostname;
          o.dhcp4.clientIdentifier = {
            clientIdentifier: ClientIdentifiers.parse(s.clientIdentifier),
            duidRawHex: s.duidRaw ?? '',
          };
        }),
      );
    }
  if (runDefaultDHCP(inputs.cfg))
    for (const l of inputs.links) {
      if (!l.physical || allLinkNames(l).some((n) => configured.has(n))) continue;
      out.push(
        dhcp4(l.name, ConfigLayer.Default, (o) => {
          o.dhcp4.clientIdentifier.clientIdentifier = ClientIdentifier.MAC;
        }),
      );
    }
  return out;
}
