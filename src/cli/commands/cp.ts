// `keelctl cp <node-path> <local-path|->`: copy a file or directory from one node; the node sends a tar.gz,
// extracted here (or written as is to stdout with `-`).
import { gunzipSync } from 'node:zlib';
import { extractTar } from '../archive/index.js';
import { type ParsedArgs, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import { type Output, writeRaw } from '../io.js';

export const cpCommand: Command = {
  name: 'cp',
  aliases: ['copy'],
  args: '<src-path> <local-path|->',
  summary: 'Copy data out from the node',
  flags: {},
  global: globalFlags,
  run: runCp,
};

async function runCp(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [src, dst, ...extra] = args.positional;
  if (!src || !dst || extra.length)
    throw new UsageError('cp takes a source path on the node and a local path or -');
  const errors: ClientError[] = [];
  const chunks: Buffer[] = [];
  await withSession(args, {}, async (s) => {
    if (s.nodes.length > 1) throw new UsageError('cp works on one node at a time: give a single -n');
    for await (const { message } of streamEach<{ bytes?: Uint8Array }>(
      s,
      'machine.MachineService',
      'Copy',
      { root_path: src },
      errors,
      signal,
    ))
      if (message.bytes?.length) chunks.push(Buffer.from(message.bytes));
  });
  const err = joinErrors(errors);
  if (err) throw err;
  const archive = Buffer.concat(chunks);
  if (dst === '-') writeRaw(io, archive);
  else extractTar(gunzipSync(archive), dst);
  return 0;
}
