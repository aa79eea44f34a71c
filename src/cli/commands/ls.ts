// `keelctl ls [-l] [-r] [-d N] [-H] [path]`: a directory listing from every node, as talosctl's tables.
import { tabwrite } from '../../cosi/resource/output/index.js';
import { bool, type ParsedArgs, str, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { fileMode, humanizeBytes, shortDate } from '../output/index.js';

export const lsCommand: Command = {
  name: 'list',
  aliases: ['ls'],
  args: '[path]',
  summary: 'Retrieve a directory listing',
  flags: {
    long: { kind: 'bool', short: 'l', usage: 'display additional file details' },
    recurse: { kind: 'bool', short: 'r', usage: 'recurse into subdirectories' },
    depth: {
      kind: 'string',
      type: 'int',
      short: 'd',
      default: '1',
      usage: 'maximum recursion depth',
    },
    humanize: { kind: 'bool', short: 'H', usage: 'humanize size and time in the output' },
  },
  global: globalFlags,
  run: runLs,
};

export interface FileInfo extends Record<string, unknown> {
  name?: string;
  relative_name?: string;
  size?: string | number;
  mode?: number;
  modified?: string | number;
  error?: string;
  link?: string;
  uid?: number;
  gid?: number;
}

/** longRow is one `ls -l` line: mode, owner, size, date, name (with its link target). */
export function longRow(node: string, f: FileInfo, humanize: boolean): string {
  const size = Number(f.size ?? 0);
  const name = f.link ? `${f.relative_name ?? ''} -> ${f.link}` : (f.relative_name ?? '');
  return [
    node,
    fileMode(f.mode ?? 0),
    String(f.uid ?? 0),
    String(f.gid ?? 0),
    humanize ? humanizeBytes(size) : String(size),
    shortDate(Number(f.modified ?? 0)),
    name,
  ].join('\t');
}

async function runLs(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [root = '/', ...extra] = args.positional;
  if (extra.length) throw new UsageError('ls takes at most one path');
  let depth = Number(str(args, 'depth'));
  if (!Number.isInteger(depth)) throw new UsageError(`invalid --depth ${JSON.stringify(str(args, 'depth'))}`);
  if (bool(args, 'recurse')) depth = 0; // 0 is "no limit" on the wire
  const request = { root, recurse: bool(args, 'recurse') || depth > 1, recursion_depth: depth };
  const long = bool(args, 'long');
  const rows = [long ? 'NODE\tMODE\tUID\tGID\tSIZE(B)\tLASTMOD\tNAME' : 'NODE\tNAME'];
  const errors: ClientError[] = [];
  await withSession(args, {}, async (s) => {
    for await (const { node, message: f } of streamEach<FileInfo>(
      s,
      'machine.MachineService',
      'List',
      request,
      errors,
      signal,
    )) {
      if (f.error) io.err(`${node}: error reading file ${f.name ?? ''}: ${f.error}`);
      else rows.push(long ? longRow(node, f, bool(args, 'humanize')) : `${node}\t${f.relative_name ?? ''}`);
    }
  });
  io.out(tabwrite(`${rows.join('\n')}\n`, { padding: 3 }).replace(/\n$/, ''));
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
