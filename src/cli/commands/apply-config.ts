// `keelctl apply-config -f <file>`: send a machine config (patched locally first) to every node and print the
// mode each node applied it in, as talosctl does (warnings and mode details on stderr).
import { applyPatches, decode, encode } from '../../config/index.js';
import { bool, parseArgs, str, strs, UsageError } from '../args.js';
import { globalFlags, insecureFlag, joinErrors, unaryEach, withSession } from '../client/index.js';
import { type Output, readInput } from '../io.js';
import { loadPatches } from '../patches.js';

export const applyConfigUsage =
  'apply-config -f <file> [--mode auto|no-reboot|reboot|staged|try] [--dry-run] [--config-patch <p>] [-i]';

/** The --mode words and their ApplyConfigurationRequest.Mode names. */
const MODES: Readonly<Record<string, string>> = {
  auto: 'AUTO',
  'no-reboot': 'NO_REBOOT',
  reboot: 'REBOOT',
  staged: 'STAGED',
  try: 'TRY',
};

/** parseGoDuration reads the `--timeout` forms people use ("1m", "30s", "1m30s") into seconds. */
export function parseGoDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/gy;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  let end = 0;
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * unit[m[2]!]!;
    end = m.index + m[0].length;
  }
  if (text === '' || end !== text.length) throw new UsageError(`invalid duration ${JSON.stringify(text)}`);
  return total;
}

interface ApplyMessage extends Record<string, unknown> {
  warnings?: string[];
  mode_details?: string;
}

export async function runApplyConfig(
  argv: readonly string[],
  io: Output,
  signal: AbortSignal,
): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    ...insecureFlag,
    file: { kind: 'string', short: 'f' },
    mode: { kind: 'string', short: 'm', default: 'auto' },
    'dry-run': { kind: 'bool' },
    timeout: { kind: 'string', default: '1m' },
    'config-patch': { kind: 'list', short: 'p' },
  });
  const file = str(args, 'file');
  if (!file) throw new UsageError('no filename supplied for configuration: use -f');
  if (args.positional.length)
    throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const mode = MODES[str(args, 'mode')!];
  if (!mode)
    throw new UsageError(
      `unknown mode ${JSON.stringify(str(args, 'mode'))}: ${Object.keys(MODES).join(', ')}`,
    );
  let data = readInput(file, 'config');
  const patches = strs(args, 'config-patch');
  if (patches.length) data = encode(applyPatches(decode(data), loadPatches(patches)));
  const seconds = parseGoDuration(str(args, 'timeout')!);
  const request = {
    data: Buffer.from(data),
    mode,
    dry_run: bool(args, 'dry-run'),
    try_mode_timeout: { seconds: String(Math.trunc(seconds)), nanos: Math.round((seconds % 1) * 1e9) },
  };
  const { replies, errors } = await withSession(args, { insecure: bool(args, 'insecure') }, (s) =>
    unaryEach<ApplyMessage>(s, 'machine.MachineService', 'ApplyConfiguration', request, signal),
  );
  for (const { message } of replies) {
    for (const w of message.warnings ?? []) io.err(`WARNING: ${w}`);
    if (message.mode_details) io.err(message.mode_details);
  }
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
