// network.LinkSpecController: every LinkSpec of `network` in the kernel. Logical links (dummy, vlan, bond,
// bridge, vrf, any kind the kernel makes from its name alone) are created, replaced when their kind or
// VLAN changes, and deleted when their spec is torn down, before the finalizer is released; every link
// is set up or down, its MTU, hardware address, multicast flag and master as the spec says. Link events
// wake it, so `ip link set … down` made by hand is undone at once.
import {
  KernelRefusal,
  LinkKind,
  LinkSpec,
  type LinkSpecSpec,
  NETWORK_NAMESPACE,
} from '../../resources/network/index.js';
import { defineController, input, type Logger, output } from '../../src/cosi/controller/index.js';
import type { TypedResource } from '../../src/cosi/resource/typed.js';
import * as C from '../../src/sys/netlink/constants.js';
import {
  encodeLink,
  isNetlinkError,
  type Link,
  type LinkAttrs,
  type LinkInfo,
  type NetlinkSocket,
} from '../../src/sys/netlink/index.js';
import {
  bondInfoOf,
  bondMasterOf,
  bondSettled,
  bridgeMasterOf,
  findLink,
  vlanOf,
  vrfData,
  vrfMasterOf,
} from './internal/kernel-links.js';
import { refusals } from './internal/kernel-refusals.js';
import { CREATE, dumpLinks, send } from './internal/kernel-rtnl.js';
import { kernelLoop } from './internal/kernel-watch.js';

export const LINK_SPEC_CONTROLLER = 'network.LinkSpecController';

/** LinkSpecController applies LinkSpecs to the kernel's links. */
export const LinkSpecController = defineController({
  name: LINK_SPEC_CONTROLLER,
  inputs: [input(LinkSpec, { namespace: NETWORK_NAMESPACE, kind: 'strong' })],
  outputs: [output(KernelRefusal, 'shared')], // each spec controller owns the refusals of its own kind
  async run(rt, { signal, logger }) {
    const refused = refusals(rt, logger, { kind: 'link', type: LinkSpec.type });
    try {
      await kernelLoop(rt, { groups: [C.RTNLGRP_LINK], signal }, async (sock) => {
        const specs = sortBonds(await rt.list(LinkSpec, { namespace: NETWORK_NAMESPACE, signal }));
        for (const s of specs)
          if (s.metadata.phase === 'running' && !s.metadata.finalizers.has(LINK_SPEC_CONTROLLER))
            await rt.addFinalizer(s.metadata, LINK_SPEC_CONTROLLER, { signal });
        const k: Kernel = { sock, links: await dumpLinks(sock, { signal }), signal };
        for (const s of specs) {
          const id = s.metadata.id;
          const version = String(s.metadata.version);
          if (!refused.due(id, version)) continue;
          const subject = `link ${JSON.stringify(s.spec.name)}`;
          const log = { ...logger, info: (m: string, f = {}) => logger.info(m, { link: s.spec.name, ...f }) };
          try {
            if (s.metadata.phase === 'tearingDown') {
              await removeLink(k, s.spec, log);
              await rt.removeFinalizer(s.metadata, LINK_SPEC_CONTROLLER, { signal });
            } else if (await syncLink(k, s, log)) {
              refused.replaced(id, version, subject);
              continue;
            }
            refused.applied(id, subject);
          } catch (e) {
            if (signal.aborted) throw e;
            refused.refused(id, version, subject, e);
            k.links = await dumpLinks(sock, { signal }); // a step may have changed links before the refusal
          }
        }
        refused.retain(new Set(specs.map((s) => s.metadata.id)));
        await refused.flush({ signal });
        rt.resetBackoff();
      });
    } finally {
      refused.close();
    }
  },
});

interface Kernel {
  readonly sock: NetlinkSocket;
  links: Link[];
  readonly signal: AbortSignal;
}

/** sortBonds is upstream's SortBonds: by name, with each bond's slaves right after it, in slave order. */
export function sortBonds<T extends { spec: LinkSpecSpec }>(items: readonly T[]): T[] {
  const key = (s: LinkSpecSpec): [string, number, string] =>
    s.bondSlave.masterName ? [s.bondSlave.masterName, s.bondSlave.slaveIndex, s.name] : [s.name, 0, ''];
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...items].sort((x, y) => {
    const [a, b] = [key(x.spec), key(y.spec)];
    return cmp(a[0], b[0]) || a[1] - b[1] || cmp(a[2], b[2]);
  });
}

const setLink = (k: Kernel, l: Link, m: LinkAttrs, what: string) =>
  send(
    k.sock,
    C.RTM_NEWLINK,
    0,
    encodeLink({ family: l.family, type: l.type, index: l.index, ...m }),
    what,
    [l.name],
    { signal: k.signal },
  );

const refresh = async (k: Kernel) => {
  k.links = await dumpLinks(k.sock, { signal: k.signal });
};

async function deleteLink(k: Kernel, l: Link): Promise<void> {
  try {
    await send(k.sock, C.RTM_DELLINK, 0, encodeLink({ index: l.index }), 'deleteLink', [l.name], {
      signal: k.signal,
    });
  } catch (e) {
    if (!isNetlinkError(e, 'ENODEV')) throw e; // gone already
  }
}

async function removeLink(k: Kernel, s: LinkSpecSpec, logger: Logger): Promise<void> {
  if (!s.logical) return; // a physical link stays as it is
  const existing = findLink(k.links, s.name, false);
  if (!existing) return;
  await deleteLink(k, existing);
  logger.info('deleted link');
  await refresh(k);
}

/** kindInfo is the IFLA_LINKINFO a logical link is created with. */
export function kindInfo(s: LinkSpecSpec): LinkInfo {
  if (s.kind === LinkKind.VLAN) return { kind: s.kind, vlan: { id: s.vlan.vid, protocol: s.vlan.protocol } };
  if (s.kind === LinkKind.VRF) return { kind: s.kind, data: vrfData(s.vrfMaster) };
  return { kind: s.kind };
}

/** logicalMismatch says why an existing logical link must be made again, or undefined. */
function logicalMismatch(l: Link, s: LinkSpecSpec): string | undefined {
  const kind = l.info?.kind ?? '';
  if (l.type !== s.type || kind !== s.kind)
    return `kind ${kind || 'none'} → ${s.kind}, type ${l.type} → ${s.type}`;
  if (s.kind === LinkKind.VLAN) {
    const v = vlanOf(l.info?.vlan);
    if (v.vid !== s.vlan.vid || v.protocol !== s.vlan.protocol) return `VLAN ${v.vid} → ${s.vlan.vid}`;
  }
  if (s.kind === LinkKind.VRF && vrfMasterOf(l.info?.data).table !== s.vrfMaster.table) return 'VRF table';
  return undefined;
}

/**
 * syncLink is upstream's syncLink: make or replace a logical link, then its kind settings, up/down,
 * MTU, hardware address, multicast and master. It says whether an existing link had to be replaced.
 */
async function syncLink(k: Kernel, r: TypedResource<LinkSpecSpec>, logger: Logger): Promise<boolean> {
  const s = r.spec;
  let existing = findLink(k.links, s.name, !s.logical); // aliases only name physical links
  let replaced = false;
  if (existing && s.logical) {
    if (!existing.info) {
      logger.warn('requested logical link has no info, skipping sync', { index: existing.index });
      return false;
    }
    const why = logicalMismatch(existing, s);
    if (why) {
      logger.info('replacing logical link', { why });
      await deleteLink(k, existing);
      existing = undefined;
      replaced = true;
    }
  }
  if (!existing) {
    if (!s.logical) return false; // the physical link is not there (yet)
    let parent: number | undefined;
    if (s.parentName) {
      parent = findLink(k.links, s.parentName, true)?.index;
      if (parent === undefined) return false; // its parent is not there yet
    }
    let master: number | undefined;
    if (s.vrfSlave.masterName) {
      master = findLink(k.links, s.vrfSlave.masterName, false)?.index;
      if (master === undefined) return false;
    }
    const m: LinkAttrs = {
      type: s.type,
      name: s.name,
      ...(s.hardwareAddress ? { address: s.hardwareAddress } : {}),
      ...(parent !== undefined ? { link: parent } : {}),
      ...(master !== undefined ? { master } : {}),
      info: kindInfo(s),
    };
    await send(k.sock, C.RTM_NEWLINK, CREATE, encodeLink(m), 'createLink', [s.name], { signal: k.signal });
    logger.info('created new link', { kind: s.kind });
    await refresh(k);
    existing = findLink(k.links, s.name, false);
    if (!existing) throw new Error(`created link ${JSON.stringify(s.name)} not found in the link list`);
  }
  const l = existing;

  if (s.kind === LinkKind.Bond && !bondSettled(bondMasterOf(l.info?.bond), s.bondMaster)) {
    // most bond settings are refused on a bond that is up or has slaves: down, release them, then set
    await setLink(k, l, { flags: 0, change: C.IFF_UP }, 'setLink');
    await releaseSlaves(k, l);
    await setLink(k, l, { info: { kind: LinkKind.Bond, bond: bondInfoOf(s.bondMaster) } }, 'setBond');
    logger.info('updated bond settings');
  }
  if (s.kind === LinkKind.Bridge) {
    const b = bridgeMasterOf(l.info?.bridge);
    const want = s.bridgeMaster;
    if (b.stp.enabled !== want.stp.enabled || b.vlan.filteringEnabled !== want.vlan.filteringEnabled) {
      await setLink(k, l, { flags: 0, change: C.IFF_UP }, 'setLink');
      await releaseSlaves(k, l);
      const bridge = { stp: want.stp.enabled, vlanFiltering: want.vlan.filteringEnabled };
      await setLink(k, l, { info: { kind: LinkKind.Bridge, bridge } }, 'setBridge');
      logger.info('updated bridge settings');
    }
  }
  if (s.kind === LinkKind.Wireguard) throw new Error('wireguard links are not supported yet');

  if (((l.flags & C.IFF_UP) !== 0) !== s.up) {
    await setLink(k, l, { flags: s.up ? C.IFF_UP : 0, change: C.IFF_UP }, 'setLink');
    logger.debug('brought link up/down', { up: s.up });
  }
  if (s.mtu !== 0 && l.mtu !== s.mtu) {
    await setLink(k, l, { mtu: s.mtu }, 'setMTU');
    logger.info('changed MTU for the link', { mtu: s.mtu });
  }
  if (s.hardwareAddress && l.address !== s.hardwareAddress.toLowerCase()) {
    await setLink(k, l, { address: s.hardwareAddress }, 'setHardwareAddress');
    logger.info('changed hardware address for the link', { hwaddr: s.hardwareAddress });
  }
  if (s.multicast !== null && ((l.flags & C.IFF_MULTICAST) !== 0) !== s.multicast) {
    await setLink(
      k,
      l,
      { flags: s.multicast ? C.IFF_MULTICAST : 0, change: C.IFF_MULTICAST },
      'setMulticast',
    );
    logger.info('changed multicast flag for the link', { multicast: s.multicast });
  }

  let masterName = '';
  let masterIndex = 0;
  for (const name of [s.bondSlave.masterName, s.bridgeSlave.masterName, s.vrfSlave.masterName]) {
    const m = name ? findLink(k.links, name, false) : undefined;
    if (m) [masterName, masterIndex] = [name, m.index];
  }
  if ((l.master ?? 0) !== masterIndex) {
    // a link is enslaved down; the next pass brings it up as the spec says
    await setLink(k, l, { flags: 0, change: C.IFF_UP }, 'setLink');
    await setLink(k, l, { master: masterIndex }, 'setMaster');
    logger.info('enslaved/unslaved link', { parent: masterName });
  }
  return replaced;
}

async function releaseSlaves(k: Kernel, master: Link): Promise<void> {
  for (const slave of k.links)
    if (slave.master === master.index) await setLink(k, slave, { master: 0 }, 'setNoMaster');
}
