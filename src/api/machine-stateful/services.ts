// MachineService.ServiceList/Start/Stop/Restart, from the services supervisor.
import { ApiError } from '../errors.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { ServiceHost, ServiceInfoLike } from './deps.js';

const timestamp = (d: Date) => {
  const ms = d.getTime();
  return { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 };
};

/** serviceInfoMessage is one machine.ServiceInfo. */
export const serviceInfoMessage = (s: ServiceInfoLike): Record<string, unknown> => ({
  id: s.id,
  state: s.state,
  events: { events: s.events.map((e) => ({ msg: e.msg, state: e.state, ts: timestamp(e.ts) })) },
  health: {
    unknown: s.health.unknown,
    healthy: s.health.healthy,
    last_message: s.health.lastMessage,
    ...(s.health.lastChange ? { last_change: timestamp(s.health.lastChange) } : {}),
  },
});

const idOf = (services: ServiceHost, req: Record<string, unknown>): string => {
  const id = typeof req.id === 'string' ? req.id : '';
  if (!services.list().some((s) => s.id === id))
    throw new ApiError('invalid-argument', `service ${JSON.stringify(id)} is not registered`);
  return id;
};

export const serviceListHandler = (services: ServiceHost): Handler =>
  unaryHandler(async () => ({ messages: [{ services: services.list().map(serviceInfoMessage) }] }));

export const serviceStartHandler = (services: ServiceHost): Handler =>
  unaryHandler(async (req) => {
    const id = idOf(services, req);
    services.start(id);
    return { messages: [{ resp: `Service "${id}" started` }] };
  });

export const serviceStopHandler = (services: ServiceHost): Handler =>
  unaryHandler(async (req, ctx) => {
    const id = idOf(services, req);
    await services.stop(id, { signal: ctx.signal });
    return { messages: [{ resp: `Service "${id}" stopped` }] };
  });

export const serviceRestartHandler = (services: ServiceHost): Handler =>
  unaryHandler(async (req, ctx) => {
    const id = idOf(services, req);
    await services.stop(id, { signal: ctx.signal });
    services.start(id);
    return { messages: [{ resp: `Service "${id}" restarted` }] };
  });
