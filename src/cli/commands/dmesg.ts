// `keelctl dmesg [-f] [--tail]`: the kernel log of every node, each chunk prefixed with its node.
import { bool, parseArgs, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import { type Output, writeRaw } from '../io.js';

export const dmesgUsage = 'dmesg [-f|--follow] [--tail]';

export async function runDmesg(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    follow: { kind: 'bool', short: 'f' },
    tail: { kind: 'bool' },
  });
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
