// network.TimeServerConfigController: TimeServerSpecs of the default, cmdline and configuration layers.
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import {
  TIME_SERVER_ID,
  TimeServerSpec,
  type TimeServerSpecSpec,
} from '../../resources/network/timeserver-spec.js';
import { DEFAULT_NTP_SERVER, documentOf, v1alpha1Of } from '../../src/config/index.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import { type ConfigInputs, configInputs, readConfigInputs } from './internal/inputs.js';

export interface TimeServerConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
}

/** timeServerConfigController writes the wanted time servers into network-config, one spec per layer. */
export function timeServerConfigController(opts: TimeServerConfigOptions = {}): Controller {
  return defineController({
    name: 'network.TimeServerConfigController',
    inputs: configInputs(),
    outputs: [output(TimeServerSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        for (const s of timeServersOf(await readConfigInputs(rt, opts.cmdline, logger, signal)))
          await rt.modify(TimeServerSpec, layeredID(s.configLayer, TIME_SERVER_ID), () => s, {
            namespace: NETWORK_CONFIG_NAMESPACE,
            signal,
          });
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: TimeServerSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

/** timeServersOf: time.cloudflare.com, the ip= NTP server, and the servers the config names (PTP devices aside). */
export function timeServersOf({ cfg, cmdline }: Pick<ConfigInputs, 'cfg' | 'cmdline'>): TimeServerSpecSpec[] {
  const out: TimeServerSpecSpec[] = [{ ntpServers: [DEFAULT_NTP_SERVER], configLayer: ConfigLayer.Default }];
  if (cmdline.ntpAddresses.length > 0)
    out.push({ ntpServers: [...cmdline.ntpAddresses], configLayer: ConfigLayer.Cmdline });
  const configured = cfg
    ? (documentOf(cfg, 'TimeSyncConfig')?.ntp?.servers ?? v1alpha1Of(cfg)?.machine?.time?.servers)
    : undefined;
  const servers = (configured ?? []).filter((s) => !s.startsWith('/dev/'));
  if (servers.length > 0) out.push({ ntpServers: servers, configLayer: ConfigLayer.MachineConfiguration });
  return out;
}
