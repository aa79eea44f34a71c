// `keelctl reboot [-m default|powercycle|force] [--wait=false] [--timeout D]`: reboot the nodes and, by
// default, wait until each is back and ready with a new boot id.
import { parseArgs, str, UsageError } from '../args.js';
import { globalFlags } from '../client/index.js';
import type { Output } from '../io.js';
import { runPowerAction, waitFlags } from './power-action.js';

export const rebootUsage = 'reboot [-m|--mode default|powercycle|force] [--wait=false] [--timeout D]';

const MODES: Readonly<Record<string, string>> = {
  default: 'DEFAULT',
  powercycle: 'POWERCYCLE',
  force: 'FORCE',
};

export function runReboot(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    ...waitFlags,
    mode: { kind: 'string', short: 'm', default: 'default' },
  });
  const mode = MODES[str(args, 'mode')!];
  if (!mode)
    throw new UsageError(
      `unknown reboot mode ${JSON.stringify(str(args, 'mode'))}: default, powercycle or force`,
    );
  return runPowerAction(
    args,
    { method: 'Reboot', request: { mode }, goal: 'machine-ready', bootIdChanges: true },
    io,
    signal,
  );
}
