// `keelctl apply-config -f <file>`: send a machine config (patched locally first) to every node and print the
// mode each node applied it in, as talosctl does (warnings and mode details on stderr).
import { applyPatches, decode, encode } from '../../config/index.js';
import { bool, type ParsedArgs, str, strs, UsageError } from '../args.js';
import { globalFlags, insecureFlag, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import { type Output, readInput } from '../io.js';
import { parseGoDuration } from '../parse-duration.js';
import { loadPatches } from '../patches.js';

/** The --mode words and their ApplyConfigurationRequest.Mode names. */
const MODES: Readonly<Record<string, string>> = {
  auto: 'AUTO',
  'no-reboot': 'NO_REBOOT',
  reboot: 'REBOOT',
  staged: 'STAGED',
  try: 'TRY',
};

export const applyConfigCommand: Command = {
  name: 'apply-config',
  aliases: ['apply'],
  summary: 'Apply a new configuration to a node',
  flags: {
    ...insecureFlag,
    file: { kind: 'string', short: 'f', usage: 'the filename of the updated configuration' },
    mode: {
      kind: 'string',
      short: 'm',
      default: 'auto',
      usage: `apply config mode: ${Object.keys(MODES).join(', ')}`,
    },
    'dry-run': { kind: 'bool', usage: 'check how the config change will be applied in dry-run mode' },
    timeout: {
      kind: 'string',
      type: 'duration',
      default: '1m',
      usage: 'the config will be rolled back after the specified timeout (if try mode is selected)',
    },
    'config-patch': {
      kind: 'list',
      short: 'p',
      usage: 'the list of config patches to apply to the local config file before sending it to the node',
    },
  },
  global: globalFlags,
  run: runApplyConfig,
};

interface ApplyMessage extends Record<string, unknown> {
  warnings?: string[];
  mode_details?: string;
}

async function runApplyConfig(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
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
