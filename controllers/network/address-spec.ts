// network.AddressSpecController: every AddressSpec of `network` on its link in the kernel. It holds a
// finalizer on each spec, removes a torn-down spec's address before releasing it, and wakes on address
// and link events too, so an address deleted by hand (or a link that appears) is acted on at once.
import {
  AddressFlag,
  AddressSpec,
  type AddressSpecSpec,
  Family,
  KernelRefusal,
  NETWORK_NAMESPACE,
} from '../../resources/network/index.js';
import { defineController, input, type Logger, output } from '../../src/cosi/controller/index.js';
import type { TypedResource } from '../../src/cosi/resource/typed.js';
import * as C from '../../src/sys/netlink/constants.js';
import {
  type Address,
  type AddressAttrs,
  broadcastOf,
  encodeAddress,
  isNetlinkError,
  type NetlinkSocket,
  parsePrefix,
} from '../../src/sys/netlink/index.js';
import { linkIndexOf } from './internal/kernel-links.js';
import { refusals } from './internal/kernel-refusals.js';
import { CREATE, dumpAddresses, dumpLinks, send } from './internal/kernel-rtnl.js';
import { kernelLoop } from './internal/kernel-watch.js';

export const ADDRESS_SPEC_CONTROLLER = 'network.AddressSpecController';

const GROUPS = [C.RTNLGRP_LINK, C.RTNLGRP_IPV4_IFADDR, C.RTNLGRP_IPV6_IFADDR];

/** AddressSpecController applies AddressSpecs to the kernel's links. */
export const AddressSpecController = defineController({
  name: ADDRESS_SPEC_CONTROLLER,
  inputs: [input(AddressSpec, { namespace: NETWORK_NAMESPACE, kind: 'strong' })],
  outputs: [output(KernelRefusal, 'shared')], // each spec controller owns the refusals of its own kind
  async run(rt, { signal, logger }) {
    const refused = refusals(rt, logger, { kind: 'address', type: AddressSpec.type });
    try {
      await kernelLoop(rt, { groups: GROUPS, signal }, async (sock) => {
        const specs = await rt.list(AddressSpec, { namespace: NETWORK_NAMESPACE, signal });
        for (const s of specs)
          if (s.metadata.phase === 'running' && !s.metadata.finalizers.has(ADDRESS_SPEC_CONTROLLER))
            await rt.addFinalizer(s.metadata, ADDRESS_SPEC_CONTROLLER, { signal });
        const links = await dumpLinks(sock, { signal });
        const addrs = await dumpAddresses(sock, { signal });
        for (const s of specs) {
          const id = s.metadata.id;
          const version = String(s.metadata.version);
          if (!refused.due(id, version)) continue;
          const subject = `address ${s.spec.address} on ${JSON.stringify(s.spec.linkName)}`;
          try {
            const index = linkIndexOf(links, s.spec.linkName);
            if (s.metadata.phase === 'tearingDown') {
              if (index !== 0) await removeAddress(sock, addrs, index, s.spec, logger, signal);
              await rt.removeFinalizer(s.metadata, ADDRESS_SPEC_CONTROLLER, { signal });
            } else if (index !== 0 && (await syncAddress(sock, addrs, index, s, logger, signal))) {
              refused.replaced(id, version, subject);
              continue;
            }
            refused.applied(id, subject);
          } catch (e) {
            if (signal.aborted) throw e;
            refused.refused(id, version, subject, e);
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

/** findAddress is upstream's: the address of that prefix on that link. */
export function findAddress(addrs: readonly Address[], index: number, prefix: string): Address | undefined {
  const p = parsePrefix(prefix);
  return addrs.find((a) => a.index === index && a.prefixLen === p.prefixLen && a.address === p.address);
}

/**
 * addressSettled: the kernel's address has the spec's scope, flags and priority. Tentative (DAD in
 * progress) and permanent (no lifetime) are the kernel's own flags and do not count.
 */
export function addressSettled(a: Address, s: AddressSpecSpec): boolean {
  const own = AddressFlag.Tentative | AddressFlag.Permanent;
  return a.scope === s.scope && (a.flags & ~own) === (s.flags & ~own) && (a.priority ?? 0) === s.priority;
}

/** addressMessage is the RTM_NEWADDR upstream sends: local and prefix address, an IPv4 broadcast below /31. */
export function addressMessage(index: number, s: AddressSpecSpec): AddressAttrs {
  const p = parsePrefix(s.address);
  const v4 = p.family === Family.Inet4;
  return {
    family: s.family || p.family,
    prefixLen: p.prefixLen,
    flags: s.flags,
    scope: s.scope,
    index,
    address: p.address,
    local: p.address,
    ...(v4 && p.prefixLen < 31 ? { broadcast: broadcastOf(p.address, p.prefixLen) } : {}),
    ...(s.priority ? { priority: s.priority } : {}),
  };
}

async function syncAddress(
  sock: NetlinkSocket,
  addrs: readonly Address[],
  index: number,
  r: TypedResource<AddressSpecSpec>,
  logger: Logger,
  signal: AbortSignal,
): Promise<boolean> {
  const s = r.spec;
  const existing = findAddress(addrs, index, s.address);
  if (existing && addressSettled(existing, s)) return false;
  if (existing) {
    // scope, flags and priority cannot be changed in place: delete, then add as the spec says
    logger.debug('replacing address', {
      address: s.address,
      link: s.linkName,
      oldScope: existing.scope,
      newScope: s.scope,
      oldFlags: existing.flags,
      newFlags: s.flags,
      oldPriority: existing.priority ?? 0,
      newPriority: s.priority,
    });
    await deleteAddress(sock, existing, s, signal);
    logger.info('removed address', { address: s.address, link: s.linkName });
  }
  try {
    await send(
      sock,
      C.RTM_NEWADDR,
      CREATE,
      encodeAddress(addressMessage(index, s)),
      'addAddress',
      [s.linkName, s.address],
      { signal },
    );
  } catch (e) {
    if (!isNetlinkError(e, 'EEXIST')) throw e;
  }
  logger.info('assigned address', { address: s.address, link: s.linkName });
  return existing !== undefined;
}

async function removeAddress(
  sock: NetlinkSocket,
  addrs: readonly Address[],
  index: number,
  s: AddressSpecSpec,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  const existing = findAddress(addrs, index, s.address);
  if (!existing) return;
  await deleteAddress(sock, existing, s, signal);
  logger.info('removed address', { address: s.address, link: s.linkName });
}

async function deleteAddress(
  sock: NetlinkSocket,
  a: Address,
  s: AddressSpecSpec,
  signal: AbortSignal,
): Promise<void> {
  try {
    await send(sock, C.RTM_DELADDR, 0, encodeAddress(a), 'deleteAddress', [s.linkName, s.address], {
      signal,
    });
  } catch (e) {
    if (!isNetlinkError(e, 'EADDRNOTAVAIL')) throw e; // gone already
  }
}
