// `keelctl shutdown [--force] [--wait=false] [--timeout D]`: power the nodes off and, by default, wait until
// each has stopped its services.
import { bool, parseArgs } from '../args.js';
import { globalFlags } from '../client/index.js';
import type { Output } from '../io.js';
import { runPowerAction, waitFlags } from './power-action.js';

export const shutdownUsage = 'shutdown [--force] [--wait=false] [--timeout D]';

export function runShutdown(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, { ...globalFlags, ...waitFlags, force: { kind: 'bool' } });
  return runPowerAction(
    args,
    {
      method: 'Shutdown',
      request: { force: bool(args, 'force') },
      goal: 'services-stopped',
      bootIdChanges: false,
    },
    io,
    signal,
  );
}
