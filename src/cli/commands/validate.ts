// `keelctl validate --config <file> --mode <metal|cloud|container> [--strict]`, as talosctl validate.
import { decode, type Mode, modes, validate } from '../../config/index.js';
import { bool, type ParsedArgs, str, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { type Output, readInput } from '../io.js';

export const validateCommand: Command = {
  name: 'validate',
  summary: 'Validate config',
  flags: {
    config: { kind: 'string', short: 'c', usage: 'the path of the config file' },
    mode: { kind: 'string', short: 'm', usage: `the mode to validate the config for: ${modes.join(', ')}` },
    strict: { kind: 'bool', usage: 'treat validation warnings as errors' },
  },
  global: {},
  run: runValidate,
};

/** runValidate prints warnings and exits 0 for a valid config; it throws the errors of an invalid one. */
function runValidate(args: ParsedArgs, io: Output): number {
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const file = str(args, 'config');
  const mode = str(args, 'mode');
  if (!file) throw new UsageError('required flag "config" not set');
  if (!mode) throw new UsageError('required flag "mode" not set');
  if (!(modes as readonly string[]).includes(mode))
    throw new UsageError(`unknown mode ${JSON.stringify(mode)}: expected metal, cloud or container`);
  const cfg = decode(readInput(file, 'config'));
  const { warnings, errors } = validate(cfg, { mode: mode as Mode, strict: bool(args, 'strict') });
  for (const w of warnings) io.err(`warning: ${w.message}`);
  if (errors.length > 0) {
    io.err(`${file}: ${errors.length} error${errors.length > 1 ? 's' : ''} occurred:`);
    for (const e of errors) io.err(`\t* ${e.message}`);
    return 1;
  }
  io.out(`${file} is valid for ${mode} mode`);
  return 0;
}
