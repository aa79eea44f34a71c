// A Watch's responses written by hand, each resource encoded once per stored snapshot. A kind's bootstrap
// sends every resource of the kind to every watcher, and the proto loader's serializer rebuilt each one
// from plain objects (fromObject, then encode) every time. Watch events carry the state's snapshots, which
// are immutable once stored and shared by every watcher (src/cosi/state/inmem), so the message made of a
// snapshot, and its bytes, serve every watcher and every bootstrap after the first.
import { encodeProtoResource, type ProtoResource, toProtoResource } from '../resource/protobuf/resource.js';
import { WireType } from '../resource/protobuf/wire-type.js';
import { varintSize } from '../resource/protobuf/wire-writer.js';
import type { Resource } from '../resource/resource.js';
import type { WatchResponse, WireEvent, WireEventType } from './wire.js';

const messages = new WeakMap<Resource, ProtoResource>();
const encoded = new WeakMap<ProtoResource, Uint8Array>();

/** snapshotMessage is toProtoResource of a snapshot, made once while the snapshot lives. */
export function snapshotMessage(r: Resource): ProtoResource {
  let m = messages.get(r);
  if (!m) {
    m = toProtoResource(r);
    messages.set(r, m);
  }
  return m;
}

function resourceBytes(m: ProtoResource): Uint8Array {
  let b = encoded.get(m);
  if (!b) {
    b = encodeProtoResource(m);
    encoded.set(m, b);
  }
  return b;
}

const EVENT_NUMBERS: Readonly<Record<WireEventType, number>> = {
  CREATED: 0,
  UPDATED: 1,
  DESTROYED: 2,
  BOOTSTRAPPED: 3,
  ERRORED: 4,
  NOOP: 5,
};

const field = (length: number) => 1 + varintSize(length) + length;

interface EventParts {
  readonly resource: Uint8Array | undefined;
  readonly old: Uint8Array | undefined;
  readonly type: number;
  readonly size: number;
}

/** parts are an event's encoded fields and its length: Event's own length is written before them */
function parts(ev: WireEvent, error: Uint8Array | undefined): EventParts {
  const resource = ev.resource ? resourceBytes(ev.resource) : undefined;
  const old = ev.old ? resourceBytes(ev.old) : undefined;
  const type =
    typeof ev.event_type === 'number' ? ev.event_type : (EVENT_NUMBERS[ev.event_type ?? 'CREATED'] ?? 0);
  let size = 0;
  if (resource) size += field(resource.length);
  if (type !== 0) size += 1 + varintSize(type);
  if (old) size += field(old.length);
  if (error) size += field(error.length);
  if (ev.bookmark !== undefined) size += field(ev.bookmark.length);
  return { resource, old, type, size };
}

/** put writes a varint at `at` and returns where it ends */
function putVarint(b: Buffer, at: number, v: number): number {
  while (v > 0x7f) {
    b[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  b[at++] = v;
  return at;
}

/** putBytes writes a length-delimited field: key, length, bytes */
function putBytes(b: Buffer, at: number, no: number, bytes: Uint8Array): number {
  at = putVarint(b, putVarint(b, at, (no << 3) | WireType.Bytes), bytes.length);
  b.set(bytes, at);
  return at + bytes.length;
}

/**
 * encodeWatchResponse is cosi.resource.WatchResponse's wire form, fields in number order and zeros left out
 * as Go leaves them. Every length is known before writing, so the message is written once into a buffer
 * of its size, from Node's pool when small: no growing, no copy at the end.
 */
export function encodeWatchResponse(msg: WatchResponse): Buffer {
  const events = (msg.event ?? []).map((ev) => {
    const error = ev.error === undefined ? undefined : Buffer.from(ev.error, 'utf8');
    return { ev, error, p: parts(ev, error) };
  });
  const b = Buffer.allocUnsafe(events.reduce((n, { p }) => n + field(p.size), 0));
  let at = 0;
  for (const { ev, error, p } of events) {
    at = putVarint(b, putVarint(b, at, (1 << 3) | WireType.Bytes), p.size);
    if (p.resource) at = putBytes(b, at, 1, p.resource);
    if (p.type !== 0) at = putVarint(b, putVarint(b, at, (2 << 3) | WireType.Varint), p.type);
    if (p.old) at = putBytes(b, at, 3, p.old);
    if (error) at = putBytes(b, at, 4, error);
    if (ev.bookmark !== undefined) at = putBytes(b, at, 5, ev.bookmark);
  }
  return b;
}
