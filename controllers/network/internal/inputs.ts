// What every network config controller reads: the active config, the links, the command line, and
// the v1alpha1 interfaces (named ones from the config, selector-based ones from DeviceConfigSpecs).
import { MACHINE_CONFIG_ID, MachineConfig } from '../../../resources/config/machine-config.js';
import { DeviceConfigSpec } from '../../../resources/network/device-config-spec.js';
import { LinkType } from '../../../resources/network/link-enums.js';
import { LinkStatus, linkStatusPhysical } from '../../../resources/network/link-status.js';
import { type Config, documentsOf, v1alpha1Of } from '../../../src/config/index.js';
import type { Device } from '../../../src/config/types/v1alpha1/network.js';
import { input, type Logger, type Reader } from '../../../src/cosi/controller/index.js';
import { configOf } from '../../config/config-of.js';
import { type CmdlineNetworking, isCmdlineError, parseCmdlineNetwork } from './cmdline.js';
import type { LinkInfo } from './links.js';

/** The inputs the config controllers share: the active config and the links the kernel has. */
export const configInputs = () => [
  input(MachineConfig, { id: MACHINE_CONFIG_ID, kind: 'weak' }),
  input(LinkStatus, { kind: 'weak' }),
  input(DeviceConfigSpec, { kind: 'weak' }),
];

export interface ConfigInputs {
  /** undefined before a config is applied (maintenance mode) */
  readonly cfg: Config | undefined;
  readonly links: readonly LinkInfo[];
  readonly cmdline: CmdlineNetworking;
  /** v1alpha1 `interfaces[]` that name their link and are not ignored */
  readonly devices: readonly (Device & { interface: string })[];
  /** links v1alpha1 marks `ignore: true` */
  readonly ignored: ReadonlySet<string>;
}

const emptyCmdline = (): CmdlineNetworking => ({
  linkConfigs: [],
  hostname: '',
  dnsAddresses: [],
  ntpAddresses: [],
  ignoreInterfaces: [],
  links: [],
});

/** readConfigInputs reads them once per pass; a malformed command line is logged and ignored, as upstream. */
export async function readConfigInputs(
  rt: Reader,
  cmdline: string | undefined,
  logger: Logger,
  signal: AbortSignal,
): Promise<ConfigInputs> {
  const mc = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
  const cfg = mc ? configOf(mc.spec) : undefined;
  const links: LinkInfo[] = (await rt.list(LinkStatus, { signal })).map((l) => ({
    name: l.metadata.id,
    alias: l.spec.alias,
    altNames: l.spec.altNames,
    index: l.spec.index,
    loopback: l.spec.type === LinkType.Loopback,
    physical: linkStatusPhysical(l.spec),
  }));
  let parsed = emptyCmdline();
  if (cmdline) {
    try {
      parsed = parseCmdlineNetwork(cmdline, { links });
    } catch (e) {
      if (!isCmdlineError(e)) throw e;
      logger.info('ignoring kernel command line networking', { error: e.message });
    }
  }
  const all = await resolvedInterfaces(rt, cfg, signal);
  const devices = all.filter((d): d is Device & { interface: string } => !d.ignore && !!d.interface);
  const ignored = new Set(all.filter((d) => d.ignore && d.interface).map((d) => d.interface!));
  return { cfg, links, cmdline: parsed, devices, ignored };
}

/**
 * resolvedInterfaces: entries that name their link come from the config itself; those picked by
 * selectors (deviceSelector, bond deviceSelectors) come as DeviceConfigController resolved them, matched
 * by the config index in the spec id `<link>/<index>[/<j>]`, and are absent until a link matches.
 */
async function resolvedInterfaces(
  rt: Reader,
  cfg: Config | undefined,
  signal: AbortSignal,
): Promise<Device[]> {
  const all = (cfg && v1alpha1Of(cfg)?.machine?.network?.interfaces) ?? [];
  const bySelector = (d: Device) => !!d.deviceSelector || !!d.bond?.deviceSelectors?.length;
  if (!all.some(bySelector)) return all;
  const specs = await rt.list(DeviceConfigSpec, { signal });
  return all.flatMap((d, i) =>
    bySelector(d)
      ? specs.filter((s) => Number(s.metadata.id.split('/')[1]) === i).map((s) => s.spec.device as Device)
      : [d],
  );
}

const TYPED_LINK_KINDS = [
  'LinkConfig',
  'DummyLinkConfig',
  'VLANConfig',
  'BondConfig',
  'BridgeConfig',
  'WireguardConfig',
] as const;

/** typedLinks are the typed link documents, each with its kind. */
export function typedLinks(cfg: Config | undefined) {
  if (!cfg) return [];
  return TYPED_LINK_KINDS.flatMap((kind) =>
    documentsOf(cfg, kind).map((d) => ({ kind, name: d.name!, spec: d.spec })),
  );
}

/**
 * runDefaultDHCP: with no config, or a config without typed link and DHCP documents, every physical
 * link not otherwise configured gets DHCPv4 at the default layer (upstream RunDefaultDHCPOperators).
 */
export const runDefaultDHCP = (cfg: Config | undefined): boolean =>
  !cfg || (typedLinks(cfg).length === 0 && documentsOf(cfg, 'DHCPv4Config').length === 0);

/** vlanLinkName is how upstream names a v1alpha1 VLAN link: `<parent>.<id>`. */
export const vlanLinkName = (parent: string, vid: number): string => `${parent}.${vid}`;

/** withHostPrefix gives an address without a prefix length the whole address (/32, /128). */
export const withHostPrefix = (a: string): string =>
  a.includes('/') ? a : `${a}/${a.includes(':') ? 128 : 32}`;
