// How network values travel: IPs and prefixes as common.NetIP / common.NetIPPrefix, MACs as bytes and text.
import type { ProtoField } from '../../src/cosi/resource/proto-schema.js';
import { ipFromBytes, ipToBytes } from './ip.js';

/** common.NetIP { bytes ip = 1 } */
export const NET_IP_SCHEMA = { ip: { no: 1, kind: 'bytes' } } as const;
/** common.NetIPPrefix { bytes ip = 1; int32 prefix_length = 2 } */
export const NET_IP_PREFIX_SCHEMA = {
  ip: { no: 1, kind: 'bytes' },
  prefixLength: { no: 2, kind: 'int32' },
} as const;

/** netIP and netIPPrefix declare a (repeated) NetIP or NetIPPrefix field. */
export const netIP = (no: number, repeated = false): ProtoField => ({
  no,
  kind: 'message',
  schema: NET_IP_SCHEMA,
  repeated,
});
export const netIPPrefix = (no: number, repeated = false): ProtoField => ({
  no,
  kind: 'message',
  schema: NET_IP_PREFIX_SCHEMA,
  repeated,
});

interface NetIPMessage {
  ip?: Uint8Array;
}
interface NetIPPrefixMessage {
  ip?: Uint8Array;
  prefixLength?: number;
}

const EMPTY = new Uint8Array(0);

/** ipMessage packs an address; the empty string is the zero netip.Addr, an empty message. */
export const ipMessage = (ip: string): NetIPMessage => ({ ip: ip === '' ? EMPTY : ipToBytes(ip) });

/** ipOfMessage is the inverse of ipMessage. */
export const ipOfMessage = (m: unknown): string => {
  const b = (m as NetIPMessage | undefined)?.ip;
  return b === undefined || b.length === 0 ? '' : ipFromBytes(b);
};

/** prefixMessage packs `addr/bits`; the empty string is the zero netip.Prefix. */
export function prefixMessage(prefix: string): NetIPPrefixMessage {
  if (prefix === '') return { ip: EMPTY, prefixLength: 0 };
  const slash = prefix.lastIndexOf('/');
  const addr = slash < 0 ? prefix : prefix.slice(0, slash);
  const bits = slash < 0 ? (addr.includes(':') ? 128 : 32) : Number(prefix.slice(slash + 1));
  return { ip: ipToBytes(addr), prefixLength: bits };
}

/** prefixOfMessage is the inverse of prefixMessage. */
export const prefixOfMessage = (m: unknown): string => {
  const p = m as NetIPPrefixMessage | undefined;
  return p?.ip === undefined || p.ip.length === 0 ? '' : `${ipFromBytes(p.ip)}/${p.prefixLength ?? 0}`;
};

export const ipsOfMessages = (v: unknown): string[] => ((v as unknown[] | undefined) ?? []).map(ipOfMessage);
export const prefixesOfMessages = (v: unknown): string[] =>
  ((v as unknown[] | undefined) ?? []).map(prefixOfMessage);

/** hardwareAddrBytes packs `aa:bb:…` (colons, dashes or bare hex) into bytes; the empty string is no address. */
export function hardwareAddrBytes(text: string): Uint8Array {
  const hex = text.replace(/[:-]/g, '');
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex))
    throw new TypeError(`${JSON.stringify(text)} is not a hardware address`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** hardwareAddrText is Go's net.HardwareAddr.String(): lowercase hex pairs joined by colons. */
export const hardwareAddrText = (b: Uint8Array | undefined): string =>
  b === undefined ? '' : Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(':');

/** hardwareAddrOf normalizes a hardware address read from YAML (or a decoder) to its text form. */
export const hardwareAddrOf = (v: unknown): string =>
  v instanceof Uint8Array
    ? hardwareAddrText(v)
    : typeof v === 'string'
      ? hardwareAddrText(hardwareAddrBytes(v))
      : '';
