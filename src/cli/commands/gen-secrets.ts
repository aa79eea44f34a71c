// `keelctl gen secrets [-o secrets.yaml] [--force]`: a fresh secrets bundle in talosctl's layout.
import { encodeSecretsBundle, mintSecrets } from '../../config/index.js';
import { bool, parseArgs, str, UsageError } from '../args.js';
import { type Output, writeOutput } from '../io.js';

export const genSecretsUsage = 'keelctl gen secrets [-o|--output-file secrets.yaml] [--force]';

export async function runGenSecrets(argv: readonly string[], io: Output): Promise<number> {
  const args = parseArgs(argv, {
    'output-file': { kind: 'string', short: 'o', default: 'secrets.yaml' },
    force: { kind: 'bool' },
  });
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const path = str(args, 'output-file')!;
  const bundle = await mintSecrets();
  writeOutput(path, encodeSecretsBundle(bundle), bool(args, 'force'));
  io.err(`created ${path}`);
  return 0;
}
