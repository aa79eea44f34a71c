// `keelctl logs <service> [-f] [--tail N] [-k]`: a service's log lines; with several nodes each line is
// prefixed with its node, as talosctl does. Chunks are cut into lines per node, so nodes never interleave mid-line.
import { bool, type ParsedArgs, str, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';

export const logsCommand: Command = {
  name: 'logs',
  args: '<service>',
  summary: 'Retrieve logs for a service',
  flags: {
    follow: { kind: 'bool', short: 'f', usage: 'specify if the logs should be streamed' },
    tail: {
      kind: 'string',
      type: 'int',
      default: '-1',
      usage: 'lines of log file to display (default is to show from the beginning)',
    },
    kubernetes: { kind: 'bool', short: 'k', usage: 'use the k8s.io containerd namespace' },
  },
  global: globalFlags,
  run: runLogs,
};

/** lineSplitter keeps each node's unfinished line until the rest of it arrives. */
export function lineSplitter(): { push(node: string, chunk: string): string[]; flush(): [string, string][] } {
  const partial = new Map<string, string>();
  return {
    push(node, chunk) {
      const text = (partial.get(node) ?? '') + chunk;
      const lines = text.split('\n');
      partial.set(node, lines.pop()!);
      return lines;
    },
    flush() {
      const rest = [...partial].filter(([, l]) => l !== '');
      partial.clear();
      return rest;
    },
  };
}

async function runLogs(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [id, ...extra] = args.positional;
  if (!id || extra.length) throw new UsageError('logs takes exactly one service id');
  const tail = Number(str(args, 'tail'));
  if (!Number.isInteger(tail)) throw new UsageError(`invalid --tail ${JSON.stringify(str(args, 'tail'))}`);
  const errors: ClientError[] = [];
  await withSession(args, {}, async (s) => {
    const request = {
      namespace: bool(args, 'kubernetes') ? 'k8s.io' : 'system',
      id,
      driver: bool(args, 'kubernetes') ? 'CRI' : 'CONTAINERD',
      follow: bool(args, 'follow'),
      tail_lines: tail,
    };
    const prefix = s.nodes.length > 1;
    const split = lineSplitter();
    const print = (node: string, line: string) => io.out(prefix ? `${node}: ${line}` : line);
    for await (const { node, message } of streamEach<{ bytes?: Uint8Array }>(
      s,
      'machine.MachineService',
      'Logs',
      request,
      errors,
      signal,
    ))
      if (message.bytes?.length)
        for (const line of split.push(node, Buffer.from(message.bytes).toString('utf8'))) print(node, line);
    for (const [node, line] of split.flush()) print(node, line);
  });
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
