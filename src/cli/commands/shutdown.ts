// `keelctl shutdown [--force] [--wait=false] [--timeout D]`: power the nodes off and, by default, wait until
// each has stopped its services.
import { bool, type ParsedArgs } from '../args.js';
import { globalFlags, insecureFlag } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { runPowerAction, waitFlags } from './power-action.js';

export const shutdownCommand: Command = {
  name: 'shutdown',
  summary: 'Shutdown a node',
  flags: {
    ...insecureFlag,
    ...waitFlags,
    force: { kind: 'bool', usage: 'if true, force a node to shutdown without a cordon/drain' },
  },
  global: globalFlags,
  run: runShutdown,
};

function runShutdown(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  return runPowerAction(
    args,
    {
      method: 'Shutdown',
      request: { force: bool(args, 'force') },
      goal: 'services-stopped',
      bootIdChanges: false,
      insecure: bool(args, 'insecure'),
    },
    io,
    signal,
  );
}
