// DHCPv4 options (RFC 2132 and the later ones a node uses): raw option bytes to typed values and back.
// One table names each option's code, field and value codec, so decoding and encoding cannot disagree.

/** Option codes used by the client. */
export const Opt = {
  SubnetMask: 1,
  Router: 3,
  DomainNameServer: 6,
  HostName: 12,
  DomainName: 15,
  InterfaceMTU: 26,
  BroadcastAddress: 28,
  NTPServers: 42,
  RequestedIPAddress: 50,
  IPAddressLeaseTime: 51,
  OptionOverload: 52,
  MessageType: 53,
  ServerIdentifier: 54,
  ParameterRequestList: 55,
  MaxMessageSize: 57,
  RenewalTime: 58,
  RebindingTime: 59,
  ClientIdentifier: 61,
  DomainSearch: 119,
  ClasslessStaticRoute: 121,
} as const;

/** DHCP message types (option 53). */
export const MessageType = {
  Discover: 1,
  Offer: 2,
  Request: 3,
  Decline: 4,
  Ack: 5,
  Nak: 6,
  Release: 7,
  Inform: 8,
} as const;

/** A classless static route (RFC 3442); gateway 0.0.0.0 means the destination is on the link. */
export interface ClasslessRoute {
  /** destination as CIDR, host bits cleared: '10.0.0.0/8' */
  readonly destination: string;
  readonly gateway: string;
}

/** Options is the typed view of the options a message carries; absent means not sent. */
export interface Options {
  subnetMask?: string;
  routers?: string[];
  dns?: string[];
  hostname?: string;
  domain?: string;
  mtu?: number;
  broadcast?: string;
  ntp?: string[];
  requestedIp?: string;
  /** seconds; 0xffffffff is infinite */
  leaseTime?: number;
  messageType?: number;
  serverId?: string;
  parameterList?: number[];
  maxMessageSize?: number;
  /** T1, seconds */
  renewalTime?: number;
  /** T2, seconds */
  rebindingTime?: number;
  clientId?: Uint8Array;
  domainSearch?: string[];
  classlessRoutes?: ClasslessRoute[];
}

/** RawOptions maps a code to its value bytes (repeated instances already joined, RFC 3396). */
export type RawOptions = Map<number, Buffer>;

/** OptionError is a value that does not fit its option's format. */
export class OptionError extends Error {
  override readonly name = 'OptionError';
}

interface Codec<T> {
  decode(b: Buffer): T;
  encode(v: T): Buffer;
}

const fail = (what: string): never => {
  throw new OptionError(what);
};

export function ipToBytes(ip: string): Buffer {
  const parts = ip.split('.');
  const n = parts.map(Number);
  if (parts.length !== 4 || n.some((x, i) => !/^\d{1,3}$/.test(parts[i]!) || x > 255))
    fail(`not an IPv4 address: ${ip}`);
  return Buffer.from(n);
}

export const bytesToIp = (b: Uint8Array, at = 0): string => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

const ip: Codec<string> = {
  decode: (b) => (b.length === 4 ? bytesToIp(b) : fail(`address of ${b.length} bytes`)),
  encode: ipToBytes,
};
const ips: Codec<string[]> = {
  decode: (b) => {
    if (b.length === 0 || b.length % 4) fail(`address list of ${b.length} bytes`);
    const out: string[] = [];
    for (let i = 0; i < b.length; i += 4) out.push(bytesToIp(b, i));
    return out;
  },
  encode: (v) => Buffer.concat(v.map(ipToBytes)),
};
const uint = (size: 1 | 2 | 4): Codec<number> => ({
  decode: (b) => (b.length === size ? b.readUIntBE(0, size) : fail(`integer of ${b.length} bytes`)),
  encode: (v) => {
    const b = Buffer.alloc(size);
    b.writeUIntBE(v, 0, size);
    return b;
  },
});
// servers pad strings with NULs (some send a terminating one): they are not part of the name
const text: Codec<string> = {
  decode: (b) => b.toString('utf8').replace(/\0+$/, ''),
  encode: (v) => Buffer.from(v, 'utf8'),
};
const bytes: Codec<Uint8Array> = { decode: (b) => Buffer.from(b), encode: (v) => Buffer.from(v) };
const codes: Codec<number[]> = { decode: (b) => [...b], encode: (v) => Buffer.from(v) };

/** domainSearch is option 119 (RFC 3397): DNS names in wire form, compressed as RFC 1035 §4.1.4. */
const domainSearch: Codec<string[]> = {
  decode(b) {
    const names: string[] = [];
    let at = 0;
    while (at < b.length) {
      const [name, next] = readName(b, at);
      names.push(name);
      at = next;
    }
    return names;
  },
  encode(names) {
    const out: number[] = [];
    const seen = new Map<string, number>(); // a suffix already written, by its offset
    for (const name of names) {
      const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
      let i = 0;
      for (; i < labels.length; i++) {
        const suffix = labels.slice(i).join('.').toLowerCase();
        const ptr = seen.get(suffix);
        if (ptr !== undefined) {
          out.push(0xc0 | (ptr >> 8), ptr & 0xff);
          break;
        }
        if (out.length < 0x4000) seen.set(suffix, out.length);
        const label = Buffer.from(labels[i]!, 'ascii');
        if (label.length > 63) fail(`label longer than 63 bytes in ${name}`);
        out.push(label.length, ...label);
      }
      if (i === labels.length) out.push(0);
    }
    return Buffer.from(out);
  },
};

/** readName reads one name at `at`, following pointers (only backwards, so a loop cannot form). */
function readName(b: Buffer, at: number): [string, number] {
  const labels: string[] = [];
  let pos = at;
  let end = -1; // where the name ends in the sequence, fixed at the first pointer
  let floor = at; // a pointer must go below the start of what it compresses
  for (;;) {
    if (pos >= b.length) fail('domain search name runs past the option');
    const len = b[pos]!;
    if (len === 0) {
      if (end < 0) end = pos + 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= b.length) fail('domain search pointer cut short');
      const target = ((len & 0x3f) << 8) | b[pos + 1]!;
      if (target >= floor) fail('domain search pointer does not point backwards');
      if (end < 0) end = pos + 2;
      floor = target;
      pos = target;
      continue;
    }
    if (len & 0xc0) fail(`domain search label type ${len >> 6}`);
    if (pos + 1 + len > b.length) fail('domain search label runs past the option');
    labels.push(b.toString('ascii', pos + 1, pos + 1 + len));
    pos += 1 + len;
  }
  return [labels.join('.'), end];
}

/** classlessRoutes is option 121 (RFC 3442): width, the significant octets of the destination, gateway. */
const classlessRoutes: Codec<ClasslessRoute[]> = {
  decode(b) {
    const routes: ClasslessRoute[] = [];
    let at = 0;
    while (at < b.length) {
      const width = b[at]!;
      if (width > 32) fail(`classless route of width ${width}`);
      const octets = Math.ceil(width / 8);
      if (at + 1 + octets + 4 > b.length) fail('classless route runs past the option');
      const dst = Buffer.alloc(4);
      b.copy(dst, 0, at + 1, at + 1 + octets);
      maskTo(dst, width);
      routes.push({ destination: `${bytesToIp(dst)}/${width}`, gateway: bytesToIp(b, at + 1 + octets) });
      at += 1 + octets + 4;
    }
    return routes;
  },
  encode(routes) {
    const out: Buffer[] = [];
    for (const r of routes) {
      const [addr, w] = r.destination.split('/');
      const width = Number(w);
      if (!(width >= 0 && width <= 32)) fail(`bad route destination ${r.destination}`);
      const dst = ipToBytes(addr!);
      maskTo(dst, width);
      out.push(Buffer.from([width]), dst.subarray(0, Math.ceil(width / 8)), ipToBytes(r.gateway));
    }
    return Buffer.concat(out);
  },
};

function maskTo(addr: Buffer, width: number): void {
  for (let i = 0; i < 4; i++) {
    const keep = Math.max(0, Math.min(8, width - i * 8));
    addr[i]! &= (0xff << (8 - keep)) & 0xff;
  }
}

type Spec = { [K in keyof Options]-?: readonly [code: number, codec: Codec<NonNullable<Options[K]>>] };

// message type first: servers and captures read it before anything else
const SPEC: Spec = {
  messageType: [Opt.MessageType, uint(1)],
  subnetMask: [Opt.SubnetMask, ip],
  routers: [Opt.Router, ips],
  dns: [Opt.DomainNameServer, ips],
  hostname: [Opt.HostName, text],
  domain: [Opt.DomainName, text],
  mtu: [Opt.InterfaceMTU, uint(2)],
  broadcast: [Opt.BroadcastAddress, ip],
  ntp: [Opt.NTPServers, ips],
  requestedIp: [Opt.RequestedIPAddress, ip],
  leaseTime: [Opt.IPAddressLeaseTime, uint(4)],
  serverId: [Opt.ServerIdentifier, ip],
  parameterList: [Opt.ParameterRequestList, codes],
  maxMessageSize: [Opt.MaxMessageSize, uint(2)],
  renewalTime: [Opt.RenewalTime, uint(4)],
  rebindingTime: [Opt.RebindingTime, uint(4)],
  clientId: [Opt.ClientIdentifier, bytes],
  domainSearch: [Opt.DomainSearch, domainSearch],
  classlessRoutes: [Opt.ClasslessStaticRoute, classlessRoutes],
};
const FIELDS = Object.entries(SPEC) as [keyof Options, readonly [number, Codec<unknown>]][];

/**
 * decodeOptions types the options it knows. A known option that is malformed is left out and named in
 * `invalid`, so one bad option from a server does not cost the whole lease.
 */
export function decodeOptions(raw: RawOptions): { options: Options; invalid: number[] } {
  const options: Record<string, unknown> = {};
  const invalid: number[] = [];
  for (const [field, [code, codec]] of FIELDS) {
    const b = raw.get(code);
    if (!b) continue;
    try {
      options[field] = codec.decode(b);
    } catch (e) {
      if (!(e instanceof OptionError)) throw e;
      invalid.push(code);
    }
  }
  return { options: options as Options, invalid };
}

/** encodeOptions encodes the typed options that are set, message type first. */
export function encodeOptions(options: Options): RawOptions {
  const raw: RawOptions = new Map();
  for (const [field, [code, codec]] of FIELDS) {
    const v = options[field];
    if (v !== undefined) raw.set(code, codec.encode(v));
  }
  return raw;
}
