// The network and time controllers of a node (PID 1 only: in container mode they would reconfigure the
// host, whose names and addresses stand in instead, see host-identity.ts). Loaded with the other
// controllers, on demand.
import { readdirSync, readFileSync } from 'node:fs';
import { NODE_KUBELET_PATHS } from '../../../controllers/k8s/kubelet-paths.js';
import type { Controller } from '../../cosi/controller/index.js';
import type { AdjustTime } from '../../sys/ntp/syncer.js';

export interface NetworkWiring {
  /** the kernel command line (ip=, vlan=, bond=, talos.hostname=, …) */
  readonly cmdline: string;
  /** the seed of a stable hostname (`auto: stable`) */
  readonly machineIdentity?: string;
  /** where /etc/hosts and /etc/resolv.conf are written; default the image's managed directory */
  readonly etcDir?: string;
  /**
   * where the pods' resolv.conf is written; default upstream's /system/resolved/resolv.conf, but none when
   * etcDir is given (a test or the code-cache training, which must not write the host's /system)
   */
  readonly podResolvConf?: string;
  /** sets the kernel's names; default sethostname/setdomainname of machined's UTS namespace */
  readonly setHostname?: (hostname: string, domainname: string) => void;
  /** corrects the clock; default adjtimex on the real clock */
  readonly adjustTime?: AdjustTime;
}

/** networkControllers makes every controller from the kernel command line to /etc/resolv.conf and the clock. */
export async function networkControllers(w: NetworkWiring): Promise<Controller[]> {
  const podResolvConf = w.podResolvConf ?? (w.etcDir ? undefined : NODE_KUBELET_PATHS.podResolvConf);
  const [
    net,
    kernel,
    hostname,
    resolver,
    timeserver,
    operator,
    dhcp4,
    nodeAddress,
    sort,
    filter,
    hwaddr,
    etc,
    files,
    status,
    time,
  ] = await Promise.all([
    import('../../../controllers/network/index.js'),
    import('../../../controllers/network/kernel.js'),
    import('../../../controllers/network/hostname-spec.js'),
    import('../../../controllers/network/resolver-spec.js'),
    import('../../../controllers/network/timeserver-spec.js'),
    import('../../../controllers/network/operator-spec.js'),
    import('../../../controllers/network/dhcp4-operator.js'),
    import('../../../controllers/network/node-address.js'),
    import('../../../controllers/network/node-address-sort-algorithm.js'),
    import('../../../controllers/k8s/address-filter.js'),
    import('../../../controllers/network/hardware-addr.js'),
    import('../../../controllers/network/etcfile.js'),
    import('../../../controllers/files/etcfile.js'),
    import('../../../controllers/network/status.js'),
    import('../../../controllers/time/index.js'),
  ]);
  // in the order the first address needs them: the kernel's links seen, the specs made, DHCP run
  return [
    ...kernel.kernelNetworkControllers(),
    ...net.networkConfigControllers({
      cmdline: w.cmdline,
      ...(w.machineIdentity ? { machineIdentity: w.machineIdentity } : {}),
    }),
    operator.operatorSpecController({ dhcp4: dhcp4.dhcp4Operator }),
    hostname.hostnameSpecController({ apply: w.setHostname ?? hostname.kernelHostname }),
    resolver.ResolverSpecController,
    timeserver.TimeServerSpecController,
    nodeAddress.NodeAddressController,
    sort.NodeAddressSortAlgorithmController,
    filter.AddressFilterController,
    hwaddr.HardwareAddrController,
    etc.networkEtcFileController(podResolvConf === undefined ? {} : { podResolvConf }),
    files.etcFileController(w.etcDir ? { dir: w.etcDir } : {}),
    status.networkStatusController(),
    w.adjustTime ? time.syncController({ adjustTime: w.adjustTime }) : time.SyncController,
  ];
}

/** kernelCmdline reads /proc/cmdline ('' where there is none). */
export function kernelCmdline(): string {
  try {
    return readFileSync('/proc/cmdline', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * machineIdentity is what the node is known by before it has a STATE partition to keep a random one
 * on: the firmware's product UUID when it has a real one, else the MACs of its network devices.
 */
export function machineIdentity(): string | undefined {
  try {
    const uuid = readFileSync('/sys/class/dmi/id/product_uuid', 'utf8').trim().toLowerCase();
    if (/^[0-9a-f-]{36}$/.test(uuid) && !/^[0-]+$/.test(uuid)) return uuid;
  } catch {
    // no DMI (not x86, or no permission): fall through
  }
  let names: string[];
  try {
    names = readdirSync('/sys/class/net').sort();
  } catch {
    return undefined;
  }
  // entries that are not devices (bonding_masters) have no address
  const macs = names.flatMap((n) => {
    if (n === 'lo') return [];
    try {
      const mac = readFileSync(`/sys/class/net/${n}/address`, 'utf8').trim();
      return mac && mac !== '00:00:00:00:00:00' ? [mac] : [];
    } catch {
      return [];
    }
  });
  return macs.length ? macs.join(',') : undefined;
}
