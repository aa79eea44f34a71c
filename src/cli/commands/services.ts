// `keelctl services` and `keelctl service <id> [status|start|stop|restart]`: the service table (NODE SERVICE
// STATE HEALTH LAST CHANGE LAST EVENT), one service's detail with its events newest first, and the
// start/stop/restart replies (NODE RESPONSE), as talosctl prints them.
import { tabwrite } from '../../cosi/resource/output/index.js';
import { bool, type ParsedArgs, UsageError } from '../args.js';
import {
  ClientError,
  globalFlags,
  insecureFlag,
  joinErrors,
  unaryEach,
  withSession,
} from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { goDuration } from '../output/index.js';

export interface Timestamp {
  seconds?: string | number;
  nanos?: number;
}
export interface ServiceInfo {
  id?: string;
  state?: string;
  events?: { events?: { msg?: string; state?: string; ts?: Timestamp }[] };
  health?: { unknown?: boolean; healthy?: boolean; last_message?: string };
}

const ms = (ts: Timestamp | undefined): number => Number(ts?.seconds ?? 0) * 1000 + (ts?.nanos ?? 0) / 1e6;

/** healthStatus is `?` while unknown, else OK or Fail. */
export const healthStatus = (s: ServiceInfo): string =>
  s.health?.unknown ? '?' : s.health?.healthy ? 'OK' : 'Fail';

const eventsOf = (s: ServiceInfo) => s.events?.events ?? [];

/** serviceRow is one service's line; with no events the age is empty and the event `<none>`. */
export function serviceRow(node: string, s: ServiceInfo, now: number): string {
  const events = eventsOf(s);
  const last = events.at(-1);
  const age = last ? goDuration(now - ms(last.ts)) : '';
  return [
    node,
    s.id ?? '',
    s.state ?? '',
    healthStatus(s),
    `${age} ago`,
    last ? (last.msg ?? '') : '<none>',
  ].join('\t');
}

/** serviceDetail is the label/value block for one node's service, events newest first. */
export function serviceDetail(node: string, s: ServiceInfo, now: number): string[] {
  const lines = [
    `NODE\t${node}`,
    `ID\t${s.id ?? ''}`,
    `STATE\t${s.state ?? ''}`,
    `HEALTH\t${healthStatus(s)}`,
  ];
  if (s.health?.last_message) lines.push(`LAST HEALTH MESSAGE\t${s.health.last_message}`);
  let label = 'EVENTS';
  for (const e of [...eventsOf(s)].reverse()) {
    lines.push(`${label}\t[${e.state ?? ''}]: ${e.msg ?? ''} (${goDuration(now - ms(e.ts))} ago)`);
    label = '';
  }
  return lines;
}

/** The control actions and their RPCs. */
const CONTROL: Readonly<Record<string, string>> = {
  start: 'ServiceStart',
  stop: 'ServiceStop',
  restart: 'ServiceRestart',
};

const table = (lines: readonly string[]) =>
  tabwrite(`${lines.join('\n')}\n`, { padding: 3 }).replace(/\n$/, '');

export const serviceCommand: Command = {
  name: 'service',
  aliases: ['services'],
  args: '[<id> [start|stop|restart|status]]',
  summary: 'Retrieve the state of a service (or all services), control service state',
  flags: { ...insecureFlag },
  global: globalFlags,
  run: runServices,
};

async function runServices(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [id, action = 'status', ...extra] = args.positional;
  const control = CONTROL[action];
  if (extra.length || (action !== 'status' && !control))
    throw new UsageError(`unsupported service action: ${JSON.stringify(action)}`);
  return withSession(args, { insecure: bool(args, 'insecure') }, async (s) => {
    if (control && id !== undefined) {
      const { replies, errors } = await unaryEach<{ resp?: string }>(
        s,
        'machine.MachineService',
        control,
        { id },
        signal,
      );
      const rows = [
        'NODE\tRESPONSE',
        ...replies.map(({ node, message }) => `${node}\t${message.resp ?? ''}`),
      ];
      io.out(table(rows));
      const err = joinErrors(errors);
      if (err) throw err;
      return 0;
    }
    if (id === undefined) {
      const { replies, errors } = await unaryEach<{ services?: ServiceInfo[] }>(
        s,
        'machine.MachineService',
        'ServiceList',
        {},
        signal,
      );
      const now = Date.now();
      const rows = ['NODE\tSERVICE\tSTATE\tHEALTH\tLAST CHANGE\tLAST EVENT'];
      for (const { node, message } of replies)
        for (const svc of message.services ?? []) rows.push(serviceRow(node, svc, now));
      io.out(table(rows));
      const err = joinErrors(errors);
      if (err) throw err;
      return 0;
    }
    // Upstream has no single-service RPC: the client lists and picks.
    const { replies, errors } = await unaryEach<{ services?: ServiceInfo[] }>(
      s,
      'machine.MachineService',
      'ServiceList',
      {},
      signal,
    );
    const now = Date.now();
    const lines: string[] = [];
    for (const { node, message } of replies)
      for (const svc of message.services ?? [])
        if (svc.id === id) lines.push(...serviceDetail(node, svc, now));
    if (lines.length) io.out(table(lines));
    const err = joinErrors(errors);
    if (err) throw err;
    if (!lines.length)
      throw new ClientError('node', `service ${JSON.stringify(id)} is not registered on any nodes`);
    return 0;
  });
}
