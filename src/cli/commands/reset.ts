// `keelctl reset [--graceful=false] [--reboot] [--wipe-mode all|system-disk|user-disks] [--user-disks-to-wipe d]
// [--wait=false] [--timeout D] [-i]`: wipe the nodes; with --reboot wait until they are back, else until down.
import { bool, type ParsedArgs, str, strs, UsageError } from '../args.js';
import { globalFlags, insecureFlag } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { runPowerAction, waitFlags } from './power-action.js';

const WIPE_MODES: Readonly<Record<string, string>> = {
  all: 'ALL',
  'system-disk': 'SYSTEM_DISK',
  'user-disks': 'USER_DISKS',
};

export const resetCommand: Command = {
  name: 'reset',
  summary: 'Reset a node',
  flags: {
    ...insecureFlag,
    ...waitFlags,
    graceful: {
      kind: 'bool',
      default: true,
      usage: 'if true, attempt to cordon/drain node and leave etcd (if applicable)',
    },
    reboot: { kind: 'bool', usage: 'if true, reboot the node after resetting instead of shutting down' },
    'wipe-mode': {
      kind: 'string',
      default: 'all',
      usage: `disk reset mode: ${Object.keys(WIPE_MODES).join(', ')}`,
    },
    'user-disks-to-wipe': {
      kind: 'list',
      commas: true,
      usage: 'if set, wipes defined devices in the list',
    },
  },
  global: globalFlags,
  run: runReset,
};

function runReset(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const mode = WIPE_MODES[str(args, 'wipe-mode')!];
  if (!mode) throw new UsageError(`unknown wipe mode ${JSON.stringify(str(args, 'wipe-mode'))}`);
  const reboot = bool(args, 'reboot');
  return runPowerAction(
    args,
    {
      method: 'Reset',
      request: {
        graceful: bool(args, 'graceful'),
        reboot,
        mode,
        user_disks_to_wipe: strs(args, 'user-disks-to-wipe'),
      },
      goal: reboot ? 'machine-ready' : 'services-stopped',
      bootIdChanges: reboot,
      insecure: bool(args, 'insecure'),
    },
    io,
    signal,
  );
}
