// `keelctl events [--tail N] [--since ID] [--duration D] [--actor-id ID]`: the machine event stream, two lines
// per event (node, id, type; actor, source, message) under one header, as talosctl prints it.
import { tabwrite } from '../../cosi/resource/output/index.js';
import { type ParsedArgs, str, UsageError } from '../args.js';
import {
  type ClientError,
  decodeEvent,
  globalFlags,
  joinErrors,
  streamEach,
  type WireEvent,
  withSession,
} from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { parseGoDuration } from '../parse-duration.js';

export const EVENTS_HEADER = 'NODE\tID\tEVENT\tACTOR\tSOURCE\tMESSAGE';

/** eventLines is one event's two tab-separated lines, before layout. */
export const eventLines = (node: string, e: NonNullable<ReturnType<typeof decodeEvent>>): string =>
  `${node}\t${e.id}\t${e.typeUrl}\n${e.actorId}\t${e.source}\t${e.message}\n`;

export const eventsCommand: Command = {
  name: 'events',
  summary: 'Stream runtime events',
  flags: {
    tail: {
      kind: 'string',
      type: 'int',
      default: '0',
      usage:
        'show specified number of past events (use -1 to show full history, default is to show no history)',
    },
    since: {
      kind: 'string',
      usage: 'show events after the specified event ID (default is to show no history)',
    },
    duration: {
      kind: 'string',
      type: 'duration',
      usage:
        'show events for the past duration interval (one second resolution, default is to show no history)',
    },
    'actor-id': { kind: 'string', usage: 'filter events by the specified actor ID (default is no filter)' },
  },
  global: globalFlags,
  run: runEvents,
};

async function runEvents(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('events takes no arguments');
  const tail = Number(str(args, 'tail'));
  if (!Number.isInteger(tail)) throw new UsageError(`invalid --tail ${JSON.stringify(str(args, 'tail'))}`);
  const duration = str(args, 'duration');
  const request = {
    tail_events: tail,
    tail_id: str(args, 'since') ?? '',
    tail_seconds: duration ? Math.trunc(parseGoDuration(duration)) : 0,
    with_actor_id: str(args, 'actor-id') ?? '',
  };
  const errors: ClientError[] = [];
  // talosctl flushes its tabwriter after every event: the header shares the first event's layout only,
  // and never shows without an event.
  let pending = `${EVENTS_HEADER}\n`;
  await withSession(args, {}, async (s) => {
    for await (const { node, message } of streamEach<WireEvent>(
      s,
      'machine.MachineService',
      'Events',
      request,
      errors,
      signal,
    )) {
      const e = decodeEvent(message);
      if (!e) continue;
      io.out(tabwrite(pending + eventLines(node, e), { padding: 3 }).replace(/\n$/, ''));
      pending = '';
    }
  });
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
