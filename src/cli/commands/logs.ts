// `keelctl logs <service> [-f] [--tail N] [-k]`: a service's log lines; with several nodes each line is
// prefixed with its node, as talosctl does. Chunks are cut into lines per node, so nodes never interleave mid-line.
import { bool, parseArgs, str, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Output } from '../io.js';

export const logsUsage = 'logs <service> [-f|--follow] [--tail N] [-k|--kubernetes]';

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

export async function runLogs(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    follow: { kind: 'bool', short: 'f' },
    tail: { kind: 'string', default: '-1' },
    kubernetes: { kind: 'bool', short: 'k' },
  });
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
