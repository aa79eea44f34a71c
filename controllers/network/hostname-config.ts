// network.HostnameConfigController: HostnameSpecs of the default (auto), cmdline and configuration layers.
import { createHash } from 'node:crypto';
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import { HostnameSpec, type HostnameSpecSpec, parseFQDN } from '../../resources/network/hostname-spec.js';
import { HOSTNAME_ID } from '../../resources/network/hostname-status.js';
import { NODE_ADDRESS_DEFAULT_ID, NodeAddress, nodeIPs } from '../../resources/network/node-address.js';
import { accessors } from '../../src/config/index.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { configInputs, readConfigInputs } from './internal/inputs.js';

export interface HostnameConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
  /**
   * machineIdentity is the node's stable identity (upstream's cluster Identity NodeID), the seed of
   * `auto: stable` hostnames; without it no stable hostname is published.
   */
  readonly machineIdentity?: string;
}

/** hostnameConfigController writes the wanted hostnames into network-config, one per layer. */
export function hostnameConfigController(opts: HostnameConfigOptions = {}): Controller {
  return defineController({
    name: 'network.HostnameConfigController',
    inputs: [...configInputs(), input(NodeAddress, { id: NODE_ADDRESS_DEFAULT_ID, kind: 'weak' })],
    outputs: [output(HostnameSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        const { cfg, cmdline } = await readConfigInputs(rt, opts.cmdline, logger, signal);
        const specs: HostnameSpecSpec[] = [];
        if (cmdline.hostname)
          specs.push({ ...parseFQDN(cmdline.hostname), configLayer: ConfigLayer.Cmdline });
        if (cfg) {
          const setting = accessors(cfg).hostname();
          if (setting?.hostname)
            specs.push({ ...parseFQDN(setting.hostname), configLayer: ConfigLayer.MachineConfiguration });
          // without `auto`, a config names the host after its address, as upstream's legacy default
          const auto = setting?.auto ?? 'addr';
          if (auto === 'stable' && opts.machineIdentity) specs.push(stableHostname(opts.machineIdentity));
          if (auto === 'addr') {
            const addr = await rt.getOrNull(NodeAddress, NODE_ADDRESS_DEFAULT_ID, { signal });
            const spec = addr ? addressHostname(nodeIPs(addr.spec)) : undefined;
            if (spec) specs.push(spec);
          }
        }
        for (const s of specs)
          await rt.modify(HostnameSpec, layeredID(s.configLayer, HOSTNAME_ID), () => s, {
            namespace: NETWORK_CONFIG_NAMESPACE,
            signal,
          });
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: HostnameSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

/**
 * stableHostname is `talos-xxx-yyy`: characters 1–6 of the base36 form of the first 8 bytes of
 * sha256(identity), so a node keeps its name across reboots and address changes.
 */
export function stableHostname(identity: string): HostnameSpecSpec {
  const head = createHash('sha256').update(identity).digest().subarray(0, 8);
  let b36 = BigInt(`0x${head.toString('hex')}`).toString(36);
  // each leading zero byte is one leading '0', as upstream's base36 encoding writes it
  for (const b of head) {
    if (b !== 0) break;
    b36 = `0${b36}`;
  }
  return {
    hostname: `talos-${b36.slice(1, 4)}-${b36.slice(4, 7)}`,
    domainname: '',
    configLayer: ConfigLayer.Default,
  };
}

/** addressHostname is `talos-10-5-0-2` from the one default node address (IPv6 colons dropped). */
export function addressHostname(ips: readonly string[]): HostnameSpecSpec | undefined {
  if (ips.length !== 1) return undefined;
  const name = ips[0]!.replaceAll(':', '').replaceAll('.', '-');
  return { hostname: `talos-${name}`, domainname: '', configLayer: ConfigLayer.Default };
}
