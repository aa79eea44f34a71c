// keelctl: Keel's command-line client. Commands so far: `gen secrets`, `gen config` and `validate`.
import { pathToFileURL } from 'node:url';
import { ConfigErrors } from '../config/index.js';
import { UsageError } from './args.js';
import { genConfigUsage, runGenConfig } from './commands/gen-config.js';
import { genSecretsUsage, runGenSecrets } from './commands/gen-secrets.js';
import { runValidate, validateUsage } from './commands/validate.js';
import { consoleOutput, type Output } from './io.js';

const usage = `usage:\n  ${genSecretsUsage}\n  ${genConfigUsage.split('\n')[0]}\n  ${validateUsage}`;

/** main runs one command and returns its exit code: 0 success, 1 failure (as talosctl). */
export async function main(argv: readonly string[], io: Output = consoleOutput): Promise<number> {
  const [cmd, sub, ...rest] = argv;
  try {
    if (cmd === 'gen' && sub === 'secrets') return await runGenSecrets(rest, io);
    if (cmd === 'gen' && sub === 'config') return await runGenConfig(rest, io);
    if (cmd === 'validate') return runValidate(argv.slice(1), io);
    if (cmd === 'help' || cmd === '--help' || cmd === '-h' || cmd === undefined) {
      io.out(usage);
      return cmd === undefined ? 1 : 0;
    }
    throw new UsageError(`unknown command ${JSON.stringify([cmd, sub].filter(Boolean).join(' '))}`);
  } catch (e) {
    if (e instanceof UsageError) io.err(`error: ${e.message}\n${usage}`);
    else if (e instanceof ConfigErrors) io.err(`error: ${e.message}`);
    else io.err(`error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
}

// run only as the entry point, so tests can import main()
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await main(process.argv.slice(2));
