// `keelctl cp <node-path> <local-path|->`: copy a file or directory from one node; the node sends a tar.gz,
// extracted here (or written as is to stdout with `-`).
import { gunzipSync } from 'node:zlib';
import { extractTar } from '../archive/index.js';
import { parseArgs, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import { type Output, writeRaw } from '../io.js';

export const cpUsage = 'cp <src-path> <local-path|->';

export async function runCp(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, globalFlags);
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
