// `keelctl dmesg [-f] [--tail]`: the kernel log of every node, each chunk prefixed with its node.
import { bool, type ParsedArgs, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import { type Output, writeRaw } from '../io.js';

export const dmesgCommand: Command = {
  name: 'dmesg',
  summary: 'Retrieve kernel logs',
  flags: {
    follow: { kind: 'bool', short: 'f', usage: 'specify if the kernel log should be streamed' },
    tail: {
      kind: 'bool',
      usage: 'specify if only new messages should be sent (makes sense only when combined with --follow)',
    },
  },
  global: globalFlags,
  run: runDmesg,
};

async function runDmesg(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('dmesg takes no arguments');
  const errors: ClientError[] = [];
  await withSession(args, {}, async (s) => {
    const request = { follow: bool(args, 'follow'), tail: bool(args, 'tail') };
    for await (const { node, message } of streamEach<{ bytes?: Uint8Array }>(
      s,
      'machine.MachineService',
      'Dmesg',
      request,
      errors,
      signal,
    ))
      if (message.bytes?.length) writeRaw(io, `${node}: ${Buffer.from(message.bytes).toString('utf8')}`);
  });
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
