// Watch events between the state's union and the wire's cosi.resource.Event, both directions.
import type { Pointer } from '../resource/kind.js';
import type { ProtoResource } from '../resource/protobuf/resource.js';
import { toProtoResource } from '../resource/protobuf/resource.js';
import { type Resource, Tombstone } from '../resource/resource.js';
import { EVENT_TYPE_NUMBERS, type EventType, type StateEvent } from '../state/events.js';
import type { WireEvent, WireEventType } from './wire.js';

const WIRE_NAMES: Readonly<Record<EventType, WireEventType>> = {
  created: 'CREATED',
  updated: 'UPDATED',
  destroyed: 'DESTROYED',
  bootstrapped: 'BOOTSTRAPPED',
  errored: 'ERRORED',
  noop: 'NOOP',
};

const BY_WIRE_NAME = new Map<WireEventType, EventType>(
  Object.entries(WIRE_NAMES).map(([t, w]) => [w, t as EventType]),
);
const BY_NUMBER = new Map<number, EventType>(
  Object.entries(EVENT_TYPE_NUMBERS).map(([t, n]) => [n, t as EventType]),
);

/** Clients below API version 1 predate these event types and must not receive them. */
export const visibleAt = (ev: StateEvent, apiVersion: number): boolean =>
  apiVersion >= 1 || (ev.type !== 'bootstrapped' && ev.type !== 'errored');

/** toWireEvent encodes one event (resources with their YAML rendering, as upstream serves them). */
export function toWireEvent(ev: StateEvent): WireEvent {
  const out: WireEvent = { event_type: WIRE_NAMES[ev.type] };
  switch (ev.type) {
    case 'errored':
      out.error = ev.error.message;
      break;
    case 'updated':
      out.resource = toProtoResource(ev.resource);
      out.old = toProtoResource(ev.old);
      break;
    case 'noop':
      if (ev.resource) out.resource = toProtoResource(ev.resource);
      break;
    default:
      out.resource = toProtoResource(ev.resource);
  }
  if (ev.bookmark) out.bookmark = ev.bookmark;
  return out;
}

const eventTypeOf = (t: WireEventType | number | undefined): EventType | undefined =>
  t === undefined ? 'created' : typeof t === 'number' ? BY_NUMBER.get(t) : BY_WIRE_NAME.get(t);

export interface DecodeContext {
  /** rebuilds a resource from the wire */
  decode(r: ProtoResource): Resource;
  /** what the watch is about; stands in when a peer omits a required resource */
  ref: Pointer;
}

/**
 * fromWireEvent decodes one event; undefined for event types this build does not know, which
 * a newer server may send and which carry nothing this client could act on.
 */
export function fromWireEvent(w: WireEvent, ctx: DecodeContext): StateEvent | undefined {
  const type = eventTypeOf(w.event_type);
  if (type === undefined) return undefined;
  // Copy out of the transport buffer: consumers may keep bookmarks indefinitely.
  const bookmark = w.bookmark ? { bookmark: new Uint8Array(w.bookmark) } : {};
  const resource = () => (w.resource ? ctx.decode(w.resource) : Tombstone.of(ctx.ref));
  switch (type) {
    case 'errored':
      return { type, error: new Error(w.error ?? 'watch failed'), ...bookmark };
    case 'noop':
      return w.resource ? { type, resource: ctx.decode(w.resource), ...bookmark } : { type, ...bookmark };
    case 'updated': {
      const r = resource();
      return { type, resource: r, old: w.old ? ctx.decode(w.old) : r, ...bookmark };
    }
    default:
      return { type, resource: resource(), ...bookmark };
  }
}
