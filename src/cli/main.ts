// keelctl: Keel's command-line client: config generation and validation offline, the node API online.

import { pathToFileURL } from 'node:url';
import { ConfigErrors } from '../config/index.js';
import { ResolveTypeError } from '../cosi/resource/meta/index.js';
import { ArchiveError } from './archive/index.js';
import { bool, parseArgs, UsageError } from './args.js';
import { ClientError } from './client/index.js';
import { type Command, helpFlag } from './command.js';
import { applyConfigCommand } from './commands/apply-config.js';
import { bootstrapCommand } from './commands/bootstrap.js';
import { configCommands } from './commands/config.js';
import { cpCommand } from './commands/cp.js';
import { dmesgCommand } from './commands/dmesg.js';
import { eventsCommand } from './commands/events.js';
import { genConfigCommand } from './commands/gen-config.js';
import { genSecretsCommand } from './commands/gen-secrets.js';
import { getCommand } from './commands/get.js';
import { healthCommand } from './commands/health.js';
import { inspectDependenciesCommand } from './commands/inspect.js';
import { kubeconfigCommand } from './commands/kubeconfig.js';
import { logsCommand } from './commands/logs.js';
import { lsCommand } from './commands/ls.js';
import { memoryCommand } from './commands/memory.js';
import { mountsCommand } from './commands/mounts.js';
import { processesCommand } from './commands/processes.js';
import { readCommand } from './commands/read.js';
import { rebootCommand } from './commands/reboot.js';
import { resetCommand } from './commands/reset.js';
import { serviceCommand } from './commands/services.js';
import { shutdownCommand } from './commands/shutdown.js';
import { validateCommand } from './commands/validate.js';
import { versionCommand } from './commands/version.js';
import { commandHelp, groupHelp, usageText } from './help.js';
import { consoleOutput, InputError, type Output, OutputError } from './io.js';
import { resolve } from './resolve.js';

/** Every command keelctl has: the dispatcher, --help and the tests all read this table. */
export const commands: readonly Command[] = [
  genSecretsCommand,
  genConfigCommand,
  validateCommand,
  ...configCommands,
  versionCommand,
  getCommand,
  applyConfigCommand,
  bootstrapCommand,
  serviceCommand,
  logsCommand,
  dmesgCommand,
  readCommand,
  memoryCommand,
  processesCommand,
  mountsCommand,
  eventsCommand,
  lsCommand,
  cpCommand,
  kubeconfigCommand,
  rebootCommand,
  shutdownCommand,
  resetCommand,
  healthCommand,
  inspectDependenciesCommand,
];

const isHelp = (a: string) => a === '-h' || a === '--help';

/** main runs one command and returns its exit code: 0 success, 1 failure (as talosctl). */
export async function main(
  argv: readonly string[],
  io: Output = consoleOutput,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const found = resolve(argv, commands);
  // a usage error shows the usage of what was asked for: the command's, else the list of commands
  let usage = groupHelp(commands);
  try {
    if (found.kind === 'command') {
      const { command } = found;
      usage = usageText(command);
      const args = parseArgs(found.argv, { ...command.flags, ...command.global, ...helpFlag(command) });
      if (bool(args, 'help')) {
        io.out(commandHelp(command));
        return 0;
      }
      return await command.run(args, io, signal);
    }
    if (found.kind === 'group') {
      usage = groupHelp(commands, found.group);
      if (found.sub === undefined || found.argv.some(isHelp)) {
        io.out(usage);
        return 0;
      }
      throw new UsageError(`unknown command ${JSON.stringify(`${found.group} ${found.sub}`)}`);
    }
    if (found.word === 'help') return help(found.argv, io);
    if (found.word === undefined) {
      io.out(usage);
      return found.argv.some(isHelp) ? 0 : 1;
    }
    throw new UsageError(`unknown command ${JSON.stringify(found.word)}`);
  } catch (e) {
    if (e instanceof UsageError) io.err(`error: ${e.message}\n\n${usage}`);
    else if (
      e instanceof ConfigErrors ||
      e instanceof ClientError ||
      e instanceof ResolveTypeError ||
      e instanceof ArchiveError ||
      e instanceof OutputError ||
      e instanceof InputError
    )
      io.err(`error: ${e.message}`);
    else io.err(`error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
}

/** help is `keelctl help [command]`, as cobra's help command. */
function help(words: readonly string[], io: Output): number {
  const found = resolve(words, commands);
  if (found.kind === 'command') io.out(commandHelp(found.command));
  else if (found.kind === 'group') io.out(groupHelp(commands, found.group));
  else if (found.word === undefined) io.out(groupHelp(commands));
  else throw new UsageError(`unknown help topic ${JSON.stringify(found.word)}`);
  return 0;
}

/**
 * exitedUnanswered speaks for a run that ended while the command still waited: nothing was left to wake
 * it (a connection gone quiet without a status), and Node would exit with 13 and print nothing.
 */
function exitedUnanswered(): void {
  process.stderr.write(
    'error: the command ended without an answer: the connection went quiet before the node replied\n',
  );
  process.exitCode = 1;
}

// run only as the entry point, so tests can import main()
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Ctrl-C (or a TERM) ends watches and follows cleanly: streams are cancelled and the exit code kept.
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort(new Error(sig)));
  process.once('exit', exitedUnanswered);
  process.exitCode = await main(process.argv.slice(2), consoleOutput, stop.signal);
  process.off('exit', exitedUnanswered);
  process.exit();
}
