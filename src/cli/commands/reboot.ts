// `keelctl reboot [-m default|powercycle|force] [--wait=false] [--timeout D]`: reboot the nodes and, by
// default, wait until each is back and ready with a new boot id.
import { type ParsedArgs, str, UsageError } from '../args.js';
import { globalFlags } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { runPowerAction, waitFlags } from './power-action.js';

const MODES: Readonly<Record<string, string>> = {
  default: 'DEFAULT',
  powercycle: 'POWERCYCLE',
  force: 'FORCE',
};

export const rebootCommand: Command = {
  name: 'reboot',
  summary: 'Reboot a node',
  flags: {
    ...waitFlags,
    mode: {
      kind: 'string',
      short: 'm',
      default: 'default',
      usage:
        'select the reboot mode: "default", "powercycle" (skips kexec), "force" (skips graceful teardown)',
    },
  },
  global: globalFlags,
  run: runReboot,
};

function runReboot(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
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
