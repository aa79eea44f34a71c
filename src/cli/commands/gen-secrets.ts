// `keelctl gen secrets [-o secrets.yaml] [--force]`: a fresh secrets bundle in talosctl's layout.
import { encodeSecretsBundle, mintSecrets } from '../../config/index.js';
import { bool, type ParsedArgs, str, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { type Output, writeOutput } from '../io.js';

export const genSecretsCommand: Command = {
  name: 'gen secrets',
  summary: 'Generates a secrets bundle file which can later be used to generate a config',
  flags: {
    'output-file': {
      kind: 'string',
      short: 'o',
      default: 'secrets.yaml',
      usage: 'path of the output file',
    },
    force: { kind: 'bool', usage: 'will overwrite existing files' },
  },
  global: {},
  run: runGenSecrets,
};

async function runGenSecrets(args: ParsedArgs, io: Output): Promise<number> {
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const path = str(args, 'output-file')!;
  const bundle = await mintSecrets();
  writeOutput(path, encodeSecretsBundle(bundle), bool(args, 'force'));
  io.err(`created ${path}`);
  return 0;
}
