// A LAN for several VMs: a bridge in a network namespace of the test's own, a tap per VM, and dnsmasq
// handing each VM's MAC a fixed address with the bridge as its router, a router to nowhere: the VMs
// reach each other and nothing else (no registry). The host's own namespace stays untouched; talosctl
// and kubectl reach the guests from inside the namespace (`via`).
import { type Dnsmasq, startDnsmasq } from '../sys/dhcp4/dnsmasq.js';
import { type BridgePeer, bridgeNetns } from '../sys/netns.js';

const SUBNET = '10.5.0';

/** LanMember is what one VM on the LAN needs: its tap, its MAC and the address the DHCP server gives it. */
export interface LanMember {
  readonly netns: string;
  readonly ifname: string;
  readonly mac: string;
  readonly address: string;
}

export interface Lan {
  readonly members: readonly LanMember[];
  /** via gives the command line that runs `argv` inside the LAN's namespace */
  via(argv: readonly string[]): string[];
  /** start the DHCP server; the VMs ask it as they boot */
  serve(): Promise<Dnsmasq>;
}

/**
 * lan makes the namespace, the bridge (x.1) and one tap per member (x.2, x.3, …); call it while the test
 * file is collected, as the namespace is deleted after the file.
 */
export function lan(count: number): Lan {
  const peer: BridgePeer = bridgeNetns(`${SUBNET}.1/24`, count);
  const members = peer.taps.map((ifname, i) => ({
    netns: peer.name,
    ifname,
    mac: `52:54:00:4b:00:${(i + 2).toString(16).padStart(2, '0')}`,
    address: `${SUBNET}.${i + 2}`,
  }));
  return {
    members,
    via: (argv) => ['ip', 'netns', 'exec', peer.name, ...argv],
    serve: () =>
      startDnsmasq(peer, peer.bridge, [
        `--dhcp-range=${SUBNET}.100,${SUBNET}.199,255.255.255.0,12h`,
        ...members.map((m) => `--dhcp-host=${m.mac},${m.address}`),
        '--no-ping',
      ]),
  };
}
