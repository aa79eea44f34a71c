// MachineService.Events: the hello event, then the selected tail of the machine events bus, then
// every new event until the caller goes away.
import { ApiError } from '../errors.js';
import { type Handler, serverStreamHandler } from '../handlers.js';
import type { EventSource } from './deps.js';
import { helloEvent, wireEvent } from './event-payload.js';

export function eventsHandler(events: EventSource): Handler {
  return serverStreamHandler(async (req, send, ctx) => {
    const tailId = typeof req.tail_id === 'string' && req.tail_id !== '' ? req.tail_id : undefined;
    const watch = events.watch({
      signal: ctx.signal,
      tailEvents: Number(req.tail_events ?? 0),
      ...(tailId ? { tailId } : {}),
      tailSeconds: Number(req.tail_seconds ?? 0),
      ...(typeof req.with_actor_id === 'string' && req.with_actor_id !== ''
        ? { actorId: req.with_actor_id }
        : {}),
    });
    await send(helloEvent(events.newId()));
    try {
      for await (const ev of watch) {
        const wire = wireEvent(ev);
        if (wire) await send(wire);
      }
    } catch (e) {
      if (ctx.signal.aborted) return;
      const why = e instanceof Error ? e.message : String(e);
      throw new ApiError(tailId ? 'invalid-argument' : 'internal', `events: ${why}`, { cause: e });
    }
  });
}
