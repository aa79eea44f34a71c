// `keelctl read <path>`: a file's contents from one node, written out unchanged.
import { type ParsedArgs, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import { type Output, writeRaw } from '../io.js';

export const readCommand: Command = {
  name: 'read',
  aliases: ['cat'],
  args: '<path>',
  summary: 'Read a file on the machine',
  flags: {},
  global: globalFlags,
  run: runRead,
};

async function runRead(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [path, ...extra] = args.positional;
  if (!path || extra.length) throw new UsageError('read takes exactly one path');
  const errors: ClientError[] = [];
  await withSession(args, {}, async (s) => {
    if (s.nodes.length > 1) throw new UsageError('read works on one node at a time: give a single -n');
    for await (const { message } of streamEach<{ bytes?: Uint8Array }>(
      s,
      'machine.MachineService',
      'Read',
      { path },
      errors,
      signal,
    ))
      if (message.bytes?.length) writeRaw(io, message.bytes);
  });
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
