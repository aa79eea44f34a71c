// startDhcp4: the state machine on a real link, with upstream's requests (what a Talos node asks a
// DHCP server for, and how it names itself) as the defaults.
import { randomBytes } from 'node:crypto';
import type { Lease } from './lease.js';
import { type Clock, Dhcp4Machine, type LeaseLostReason, realClock, type State } from './machine.js';
import { Opt } from './options.js';
import { linkInfo, openDhcpSocket } from './transport.js';

/** ClientId is option 61: none, type 1 + the MAC (RFC 2132 §9.14), or raw bytes (a DUID, as upstream sends it). */
export type ClientId = 'none' | 'mac' | Uint8Array;

export interface Dhcp4Options {
  readonly link: string;
  /** the address to send as chaddr; the link's own by default */
  readonly hardwareAddr?: Uint8Array;
  readonly clientId?: ClientId;
  /** option 12 to send; when set, option 12 is not also asked for (dnsmasq would parrot it back) */
  readonly hostname?: string;
  /** do not ask the server for a hostname (upstream's skipHostnameRequest) */
  readonly skipHostnameRequest?: boolean;
  /** ask for option 26; upstream leaves it out on Azure, whose servers then do not answer */
  readonly requestMtu?: boolean;
  /** option 55 in full, replacing the default list */
  readonly requestOptions?: readonly number[];
  readonly signal?: AbortSignal;
  onLease(lease: Lease): void;
  onLeaseLost?(reason: LeaseLostReason, lease: Lease): void;
  log?(msg: string): void;
  /** time for the protocol's timers; real by default */
  readonly clock?: Clock;
}

export interface Dhcp4Client {
  readonly state: State;
  readonly lease: Lease | undefined;
  /** a changed name restarts discovery with it */
  setHostname(name: string | undefined): void;
  /** release gives the lease back to its server (DHCPRELEASE) and stops */
  release(): void;
  stop(): void;
}

/** requestedOptions is option 55 as upstream builds it. */
export function requestedOptions(
  o: Pick<Dhcp4Options, 'hostname' | 'skipHostnameRequest' | 'requestMtu'>,
): number[] {
  const list: number[] = [
    Opt.SubnetMask,
    Opt.Router,
    Opt.DomainNameServer,
    Opt.DomainName,
    Opt.BroadcastAddress,
    Opt.NTPServers,
    Opt.DomainSearch,
    Opt.ClasslessStaticRoute,
  ];
  if (o.requestMtu !== false) list.push(Opt.InterfaceMTU);
  if (!o.hostname && !o.skipHostnameRequest) list.push(Opt.HostName);
  return list;
}

const random = (): number => randomBytes(4).readUInt32BE() / 0x100000000;

/** startDhcp4 starts a client on `link` at once; it runs until stop(), release() or the signal. */
export function startDhcp4(o: Dhcp4Options): Dhcp4Client {
  const info = linkInfo(o.link);
  const mac = Buffer.from(o.hardwareAddr ?? info.mac);
  const id = o.clientId ?? 'mac';
  const m = new Dhcp4Machine({
    mac,
    clientId: id === 'none' ? null : id === 'mac' ? Buffer.concat([Buffer.from([1]), mac]) : id,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    requestOptions: o.requestOptions ?? requestedOptions(o),
    clock: o.clock ?? realClock,
    random,
    openSocket: (h) => openDhcpSocket({ ...info, mac }, h),
    onLease: (l) => o.onLease(l),
    onLeaseLost: (reason, l) => o.onLeaseLost?.(reason, l),
    log: (msg) => o.log?.(`dhcp4/${o.link}: ${msg}`),
  });
  const onAbort = () => m.stop();
  const stop = (release: boolean) => {
    o.signal?.removeEventListener('abort', onAbort);
    m.stop(release);
  };
  if (o.signal?.aborted)
    throw new Error('aborted before the DHCP client started', { cause: o.signal.reason });
  o.signal?.addEventListener('abort', onAbort, { once: true });
  m.start();
  return {
    get state() {
      return m.state;
    },
    get lease() {
      return m.lease;
    },
    setHostname: (name) => m.setHostname(name),
    release: () => stop(true),
    stop: () => stop(false),
  };
}
