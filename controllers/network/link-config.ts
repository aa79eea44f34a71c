// network.LinkConfigController: LinkSpecs of the default, cmdline and configuration layers.
import {
  ADLACPActives,
  ADSelects,
  ARPAllTargetsValues,
  ARPValidates,
  BondModes,
  BondXmitHashPolicies,
  FailOverMACs,
  LACPRates,
  PrimaryReselects,
} from '../../resources/network/bond-enums.js';
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import { linkID } from '../../resources/network/ids.js';
import { LinkType, VLANProtocol, VLANProtocols } from '../../resources/network/link-enums.js';
import type { BondMasterSpec } from '../../resources/network/link-kinds.js';
import { LinkKind, LinkSpec, type LinkSpecSpec, linkSpecZero } from '../../resources/network/link-spec.js';
import { documentsOf } from '../../src/config/index.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import {
  type CmdlineBondMaster,
  type CmdlineLink,
  defaultBondMaster,
  fillBondDefaults,
} from './internal/cmdline.js';
import {
  type ConfigInputs,
  configInputs,
  readConfigInputs,
  runDefaultDHCP,
  typedLinks,
  vlanLinkName,
} from './internal/inputs.js';
import { allLinkNames, linkResolver } from './internal/links.js';

export interface LinkConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
}

/** linkConfigController writes the wanted links into network-config, one copy per layer. */
export function linkConfigController(opts: LinkConfigOptions = {}): Controller {
  return defineController({
    name: 'network.LinkConfigController',
    inputs: configInputs(),
    outputs: [output(LinkSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        for (const l of linksOf(await readConfigInputs(rt, opts.cmdline, logger, signal)))
          await rt.modify(LinkSpec, layeredID(l.configLayer, linkID(l.name)), () => l, {
            namespace: NETWORK_CONFIG_NAMESPACE,
            signal,
          });
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: LinkSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

const link = (name: string, configLayer: ConfigLayer, up = true): LinkSpecSpec => ({
  ...linkSpecZero(),
  name,
  up,
  configLayer,
});

/** bondMasterOf turns the kernel's option names into the spec's numbers. */
export function bondMasterOf(b: CmdlineBondMaster): BondMasterSpec {
  return {
    ...b,
    mode: BondModes.parse(b.mode),
    hashPolicy: BondXmitHashPolicies.parse(b.hashPolicy),
    lacpRate: LACPRates.parse(b.lacpRate),
    arpValidate: ARPValidates.parse(b.arpValidate),
    arpAllTargets: ARPAllTargetsValues.parse(b.arpAllTargets),
    primaryReselect: PrimaryReselects.parse(b.primaryReselect),
    failOverMac: FailOverMACs.parse(b.failOverMac),
    adSelect: ADSelects.parse(b.adSelect),
    adLACPActive: ADLACPActives.parse(b.adLACPActive),
    arpIPTargets: [...b.arpIPTargets],
    nsIP6Targets: [],
  };
}

/** cmdlineLinkSpec is one command-line link as a LinkSpec of the cmdline layer. */
export function cmdlineLinkSpec(c: CmdlineLink): LinkSpecSpec {
  const l = link(c.name, ConfigLayer.Cmdline);
  l.logical = c.logical;
  l.mtu = c.mtu;
  l.kind = c.kind;
  l.parentName = c.parentName;
  if (c.kind) l.type = LinkType.Ether;
  if (c.vlan) l.vlan = { vid: c.vlan.vid, protocol: VLANProtocol.Q8021 };
  if (c.bondMaster) l.bondMaster = bondMasterOf(c.bondMaster);
  if (c.bondSlave) l.bondSlave = { ...c.bondSlave };
  return l;
}

/** Option names of the config (v1alpha1 and BondConfig keys) that map to the driver's enum names. */
function configBond(b: Record<string, unknown>, modeKey: string): CmdlineBondMaster {
  const out = defaultBondMaster();
  const s = (k: string) => (typeof b[k] === 'string' && b[k] !== '' ? (b[k] as string) : undefined);
  const n = (k: string) => (typeof b[k] === 'number' ? (b[k] as number) : 0);
  out.mode = s(modeKey) ?? out.mode;
  out.hashPolicy = s('xmitHashPolicy') ?? out.hashPolicy;
  out.lacpRate = s('lacpRate') ?? out.lacpRate;
  out.arpValidate = s('arpValidate') ?? out.arpValidate;
  out.arpAllTargets = s('arpAllTargets') ?? out.arpAllTargets;
  out.primaryReselect = s('primaryReselect') ?? out.primaryReselect;
  out.failOverMac = s('failOverMac') ?? out.failOverMac;
  out.adSelect = s('adSelect') ?? out.adSelect;
  out.adLACPActive = s('adLACPActive') ?? out.adLACPActive;
  out.arpIPTargets = ((b.arpIPTarget ?? b.arpIpTargets ?? []) as string[]).slice();
  out.miimon = n('miimon');
  out.upDelay = n('updelay');
  out.downDelay = n('downdelay');
  out.arpInterval = n('arpInterval');
  out.resendIGMP = n('resendIgmp') || n('resendIGMP');
  out.minLinks = n('minLinks');
  out.lpInterval = n('lpInterval');
  out.packetsPerSlave = n('packetsPerSlave');
  out.numPeerNotif = n('numPeerNotif');
  out.tlbDynamicLB = n('tlbDynamicLb') || n('tlbLogicalLb');
  out.allSlavesActive = n('allSlavesActive');
  out.adActorSysPrio = n('adActorSysPrio');
  out.adUserPortKey = n('adUserPortKey');
  out.peerNotifyDelay = n('peerNotifyDelay') || n('peerNotifDelay');
  out.missedMax = n('missedMax');
  fillBondDefaults(out);
  return out;
}

/**
 * linksOf: lo up (default), the command line's links, the configured links (v1alpha1 interfaces and
 * the link documents, with their bond/bridge members), and, while the default DHCP runs, every
 * physical link nothing else configures, brought up at the default layer.
 */
export function linksOf(inputs: ConfigInputs): LinkSpecSpec[] {
  const resolve = linkResolver(inputs.links);
  const out: LinkSpecSpec[] = [link('lo', ConfigLayer.Default)];
  for (const c of inputs.cmdline.links)
    if (c.name && !inputs.ignored.has(c.name)) out.push(cmdlineLinkSpec(c));

  const cfgLinks = new Map<string, LinkSpecSpec>();
  const at = (name: string, up = true) => {
    const held = cfgLinks.get(name);
    if (held) return held;
    const l = link(name, ConfigLayer.MachineConfiguration, up);
    cfgLinks.set(name, l);
    return l;
  };
  const enslave = (members: readonly string[] | undefined, master: string, kind: 'bond' | 'bridge') =>
    (members ?? []).map(resolve).forEach((m, slaveIndex) => {
      const l = at(m);
      if (kind === 'bond') l.bondSlave = { masterName: master, slaveIndex };
      else l.bridgeSlave = { masterName: master };
    });
  const logical = (l: LinkSpecSpec, kind: string) => {
    l.logical = true;
    l.kind = kind;
    l.type = LinkType.Ether;
  };
  for (const d of inputs.devices) {
    const name = resolve(d.interface);
    const l = at(name);
    if (d.mtu) l.mtu = d.mtu;
    if (d.bond) {
      logical(l, LinkKind.Bond);
      l.bondMaster = bondMasterOf(configBond(d.bond, 'mode'));
      enslave(d.bond.interfaces, name, 'bond');
    }
    if (d.bridge) {
      logical(l, LinkKind.Bridge);
      l.bridgeMaster = {
        stp: { enabled: d.bridge.stp?.enabled ?? false },
        vlan: { filteringEnabled: d.bridge.vlan?.vlanFiltering ?? false },
      };
      enslave(d.bridge.interfaces, name, 'bridge');
    }
    if (d.bridgePort?.master) at(name).bridgeSlave = { masterName: resolve(d.bridgePort.master) };
    if (d.dummy) logical(l, 'dummy');
    for (const v of d.vlans ?? []) {
      // the VLAN is named after the interface as written, its parent is the resolved link
      const vl = at(vlanLinkName(d.interface, v.vlanId ?? 0));
      logical(vl, LinkKind.VLAN);
      vl.parentName = name;
      vl.mtu = v.mtu ?? 0;
      vl.vlan = { vid: v.vlanId ?? 0, protocol: VLANProtocol.Q8021 };
    }
  }
  for (const t of typedLinks(inputs.cfg)) {
    const name = resolve(t.name);
    const l = at(name);
    l.up = t.spec.up ?? true;
    if (t.spec.mtu) l.mtu = t.spec.mtu;
    if (t.spec.multicast !== undefined) l.multicast = t.spec.multicast;
    const spec = t.spec as { hardwareAddr?: string; links?: string[] };
    if (spec.hardwareAddr) l.hardwareAddress = spec.hardwareAddr;
    if (t.kind === 'DummyLinkConfig') logical(l, 'dummy');
    if (t.kind === 'VLANConfig') {
      const v = t.spec as { vlanID?: number; vlanMode?: string; parent?: string };
      logical(l, LinkKind.VLAN);
      l.parentName = resolve(v.parent ?? '');
      l.vlan = {
        vid: v.vlanID ?? 0,
        protocol: v.vlanMode ? VLANProtocols.parse(v.vlanMode) : VLANProtocol.Q8021,
      };
    }
    if (t.kind === 'BondConfig') {
      logical(l, LinkKind.Bond);
      l.bondMaster = bondMasterOf(configBond(t.spec as Record<string, unknown>, 'bondMode'));
      enslave(spec.links, name, 'bond');
    }
    if (t.kind === 'BridgeConfig') {
      const b = t.spec as { stp?: { enabled?: boolean }; vlan?: { filtering?: boolean } };
      logical(l, LinkKind.Bridge);
      l.bridgeMaster = {
        stp: { enabled: b.stp?.enabled ?? false },
        vlan: { filteringEnabled: b.vlan?.filtering ?? false },
      };
      enslave(spec.links, name, 'bridge');
    }
    if (t.kind === 'WireguardConfig') {
      l.logical = true;
      l.kind = LinkKind.Wireguard;
      l.type = LinkType.None;
    }
  }
  // a DHCP document brings its link up when nothing else configures it
  if (inputs.cfg) for (const d of documentsOf(inputs.cfg, 'DHCPv4Config')) at(resolve(d.name!));
  out.push(...cfgLinks.values());

  if (runDefaultDHCP(inputs.cfg)) {
    const configured = new Set([
      ...inputs.cmdline.ignoreInterfaces,
      ...inputs.ignored,
      ...inputs.cmdline.links.map((c) => c.name),
      ...inputs.devices.flatMap((d) => [
        d.interface,
        ...(d.bond?.interfaces ?? []),
        ...(d.bridge?.interfaces ?? []),
      ]),
    ]);
    for (const l of inputs.links)
      if (l.physical && !allLinkNames(l).some((n) => configured.has(n)))
        out.push(link(l.name, ConfigLayer.Default));
  }
  return out;
}
