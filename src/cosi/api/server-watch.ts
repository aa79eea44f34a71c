// The Watch handler: establish the state watch, announce it with an empty message, then stream events.
import { status } from '@grpc/grpc-js';
import type { Kind, Pointer } from '../resource/kind.js';
import type { CoreState, WatchKindOptions, WatchOptions } from '../state/core.js';
import type { StateEvent, WatchStream } from '../state/events.js';
import { RequestError } from './errors.js';
import { toWireEvent, visibleAt } from './event-codec.js';
import { idQueryFromWire, labelQueriesFromWire } from './queries.js';
import type { Send } from './server-calls.js';
import type { WatchRequest, WatchResponse } from './wire.js';

/** AccessCheck runs the service's access rule for a watch of `target` (kind-wide when it has no id). */
export type AccessCheck = (target: Kind & { readonly id?: string }, signal: AbortSignal) => Promise<void>;

/** watchOptions reads the options common to both watch shapes; absent sub-messages mean defaults. */
function watchOptions(req: WatchRequest, signal: AbortSignal): WatchOptions {
  const o = req.options ?? {};
  const out: WatchOptions = { signal };
  if (o.tail_events !== undefined && o.tail_events > 0) out.tailEvents = o.tail_events;
  // Presence matters: an empty bookmark is still a (bad) bookmark for the state to reject.
  if (o.start_from_bookmark !== undefined) out.startFromBookmark = new Uint8Array(o.start_from_bookmark);
  return out;
}

async function open(
  core: CoreState,
  req: WatchRequest,
  check: AccessCheck,
  signal: AbortSignal,
): Promise<WatchStream<StateEvent | StateEvent[]>> {
  const o = req.options ?? {};
  const kind: Kind = { namespace: req.namespace ?? '', type: req.type ?? '' };
  if (req.id !== undefined) {
    if (o.bootstrap_contents)
      throw new RequestError(
        status.UNIMPLEMENTED,
        'bootstrap contents is not implemented for resource watch',
      );
    if (o.label_query && o.label_query.length > 0)
      throw new RequestError(status.UNIMPLEMENTED, 'label query is not implemented for resource watch');
    const ptr: Pointer = { ...kind, id: req.id };
    await check(ptr, signal);
    return core.watch(ptr, watchOptions(req, signal));
  }
  const opts: WatchKindOptions = { ...watchOptions(req, signal) };
  const labelQueries = labelQueriesFromWire(o.label_query);
  if (labelQueries.length > 0) opts.labelQueries = labelQueries;
  const idQuery = idQueryFromWire(o.id_query);
  if (idQuery) opts.idQuery = idQuery;
  if (o.bootstrap_contents) opts.bootstrapContents = true;
  if (o.bootstrap_bookmark) opts.bootstrapBookmark = true;
  await check(kind, signal);
  return o.aggregated ? core.watchKindAggregated(kind, opts) : core.watchKind(kind, opts);
}

/**
 * serveWatch streams one watch until the client cancels (the signal aborts) or the state ends it
 * (after an errored event). Aggregated watches send each batch as one message, the others one
 * event per message.
 */
export async function serveWatch(
  core: CoreState,
  req: WatchRequest,
  send: Send<WatchResponse>,
  check: AccessCheck,
  signal: AbortSignal,
): Promise<void> {
  const apiVersion = req.api_version ?? 0;
  const stream = await open(core, req, check, signal);
  try {
    // The empty first message tells the client the watch is established: nothing after it is missed.
    await send({});
    for await (const item of stream) {
      const events = (Array.isArray(item) ? item : [item]).filter((ev) => visibleAt(ev, apiVersion));
      if (events.length > 0) await send({ event: events.map(toWireEvent) });
      if (signal.aborted) break;
    }
  } finally {
    stream.close();
  }
}
