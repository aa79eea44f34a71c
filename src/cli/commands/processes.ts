// `keelctl processes [-s rss|cpu]`: each node's processes, largest first, columnized as talosctl prints them.
import { type ParsedArgs, str, UsageError } from '../args.js';
import { globalFlags, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { columnize, humanizeBytes } from '../output/index.js';

export const processesCommand: Command = {
  name: 'processes',
  aliases: ['ps'],
  summary: 'List running processes',
  flags: {
    sort: {
      kind: 'string',
      short: 's',
      default: 'rss',
      usage: 'column to sort output by: rss or cpu',
    },
  },
  global: globalFlags,
  run: runProcesses,
};

export interface ProcessInfo {
  pid?: number;
  state?: string;
  threads?: number;
  cpu_time?: number;
  virtual_memory?: string | number;
  resident_memory?: string | number;
  command?: string;
  executable?: string;
  args?: string;
}

/** commandLine is what talosctl shows: the args with argv[0] replaced by the full executable path when they agree. */
export function commandLine(p: ProcessInfo): string {
  if (!p.executable) return p.command ?? '';
  const first = p.args ? p.args.split(/\s+/).filter(Boolean)[0] : undefined;
  const exe = p.executable.split(/\s+/)[0]!;
  if (first !== undefined && first === exe.slice(exe.lastIndexOf('/') + 1))
    return p.args!.replace(first, p.executable);
  return p.args ?? '';
}

/** processLines are the `|`-separated lines of one node, sorted descending by `sort`. */
export function processLines(node: string, procs: readonly ProcessInfo[], sort: 'rss' | 'cpu'): string[] {
  const key = (p: ProcessInfo) => (sort === 'cpu' ? (p.cpu_time ?? 0) : Number(p.resident_memory ?? 0));
  return [...procs]
    .sort((a, b) => key(b) - key(a))
    .map(
      (p) =>
        `${node} | ${p.pid ?? 0} | ${p.state ?? ''} | ${p.threads ?? 0} | ${(p.cpu_time ?? 0).toFixed(2)} | ` +
        `${humanizeBytes(Number(p.virtual_memory ?? 0))} | ${humanizeBytes(Number(p.resident_memory ?? 0))} | ${commandLine(p)}`,
    );
}

async function runProcesses(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('processes takes no arguments');
  const sort = str(args, 'sort');
  if (sort !== 'rss' && sort !== 'cpu')
    throw new UsageError(`unknown sort ${JSON.stringify(sort)}: rss or cpu`);
  const { replies, errors } = await withSession(args, {}, (s) =>
    unaryEach<{ processes?: ProcessInfo[] }>(s, 'machine.MachineService', 'Processes', {}, signal),
  );
  const lines = ['NODE | PID | STATE | THREADS | CPU-TIME | VIRTMEM | RESMEM | COMMAND'];
  for (const { node, message } of replies) lines.push(...processLines(node, message.processes ?? [], sort));
  io.out(columnize(lines));
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
