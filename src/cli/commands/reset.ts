// `keelctl reset [--graceful=false] [--reboot] [--wipe-mode all|system-disk|user-disks] [--user-disks-to-wipe d]
// [--wait=false] [--timeout D] [-i]`: wipe the nodes; with --reboot wait until they are back, else until down.
import { bool, parseArgs, str, strs, UsageError } from '../args.js';
import { globalFlags, insecureFlag } from '../client/index.js';
import type { Output } from '../io.js';
import { runPowerAction, waitFlags } from './power-action.js';

export const resetUsage =
  'reset [--graceful=false] [--reboot] [--wipe-mode all|system-disk|user-disks] [--wait=false] [-i]';

const WIPE_MODES: Readonly<Record<string, string>> = {
  all: 'ALL',
  'system-disk': 'SYSTEM_DISK',
  'user-disks': 'USER_DISKS',
};

export function runReset(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    ...insecureFlag,
    ...waitFlags,
    graceful: { kind: 'bool', default: true },
    reboot: { kind: 'bool' },
    'wipe-mode': { kind: 'string', default: 'all' },
    'user-disks-to-wipe': { kind: 'list', commas: true },
  });
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
