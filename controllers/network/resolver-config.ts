// network.ResolverConfigController: ResolverSpecs of the default, cmdline and configuration layers.
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import { RESOLVER_ID, ResolverSpec, type ResolverSpecSpec } from '../../resources/network/resolver-spec.js';
import { accessors } from '../../src/config/index.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import { type ConfigInputs, configInputs, readConfigInputs } from './internal/inputs.js';
import { parseIP } from './internal/ip.js';

/** The resolvers of a node nobody configured (upstream's DefaultPrimaryResolver and DefaultSecondaryResolver). */
export const DEFAULT_RESOLVERS = ['1.1.1.1', '8.8.8.8'];

export interface ResolverConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
}

/** resolverConfigController writes the wanted resolvers into network-config, one spec per layer. */
export function resolverConfigController(opts: ResolverConfigOptions = {}): Controller {
  return defineController({
    name: 'network.ResolverConfigController',
    inputs: configInputs(),
    outputs: [output(ResolverSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        for (const s of resolversOf(await readConfigInputs(rt, opts.cmdline, logger, signal)))
          await rt.modify(ResolverSpec, layeredID(s.configLayer, RESOLVER_ID), () => s, {
            namespace: NETWORK_CONFIG_NAMESPACE,
            signal,
          });
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: ResolverSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

/** resolversOf: the defaults, the ip= DNS servers, and the configured nameservers and search domains. */
export function resolversOf({ cfg, cmdline }: Pick<ConfigInputs, 'cfg' | 'cmdline'>): ResolverSpecSpec[] {
  const out: ResolverSpecSpec[] = [
    { dnsServers: [...DEFAULT_RESOLVERS], configLayer: ConfigLayer.Default, searchDomains: [] },
  ];
  if (cmdline.dnsAddresses.length > 0)
    out.push({ dnsServers: [...cmdline.dnsAddresses], configLayer: ConfigLayer.Cmdline, searchDomains: [] });
  if (cfg) {
    const a = accessors(cfg);
    const servers = a.resolvers().flatMap((s) => parseIP(s) ?? []);
    const searchDomains = [...a.searchDomains()];
    if (servers.length > 0 || searchDomains.length > 0)
      out.push({ dnsServers: servers, configLayer: ConfigLayer.MachineConfiguration, searchDomains });
  }
  return out;
}
