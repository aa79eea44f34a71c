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

const serviceOf = (services: ServiceHost, req: Record<string, unknown>): ServiceInfoLike => {
  const id = typeof req.id === 'string' ? req.id : '';
  const info = services.list().find((s) => s.id === id);
  if (!info) throw new ApiError('invalid-argument', `service ${JSON.stringify(id)} is not registered`);
  return info;
};

// upstream's IsRunning: a service is running from its start until it has ended one way or another
const ENDED = new Set(['Initialized', 'Finished', 'Failed', 'Skipped']);
const running = (s: ServiceInfoLike) => !ENDED.has(s.state);

/**
 * allowed applies upstream's rule: a service already in the asked-for condition is left as it is (and the
 * call succeeds); otherwise only a service that allows it is driven.
 */
function allowed(s: ServiceInfoLike, op: 'start' | 'stop' | 'restart'): boolean {
  if (op === 'start' && running(s)) return false;
  if (op === 'stop' && !running(s)) return false;
  if (s.apiControl === true) return true;
  throw new ApiError(
    'failed-precondition',
    `service ${JSON.stringify(s.id)} doesn't support ${op} operation via API`,
  );
}

export const serviceListHandler = (services: ServiceHost): Handler =>
  unaryHandler(async () => ({ messages: [{ services: services.list().map(serviceInfoMessage) }] }));

export const serviceStartHandler = (services: ServiceHost): Handler =>
  unaryHandler(async (req) => {
    const s = serviceOf(services, req);
    if (allowed(s, 'start')) services.start(s.id);
    return { messages: [{ resp: `Service "${s.id}" started` }] };
  });

export const serviceStopHandler = (services: ServiceHost): Handler =>
  unaryHandler(async (req, ctx) => {
    const s = serviceOf(services, req);
    if (allowed(s, 'stop')) await services.stop(s.id, { signal: ctx.signal });
    return { messages: [{ resp: `Service "${s.id}" stopped` }] };
  });

export const serviceRestartHandler = (services: ServiceHost): Handler =>
  unaryHandler(async (req, ctx) => {
    const s = serviceOf(services, req);
    // a service that is not running is started, as upstream's restart does
    if (running(s) ? allowed(s, 'restart') : allowed(s, 'start')) {
      await services.stop(s.id, { signal: ctx.signal });
      services.start(s.id);
    }
    return { messages: [{ resp: `Service "${s.id}" restarted` }] };
  });
