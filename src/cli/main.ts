// keelctl: Keel's command-line client: config generation and validation offline, the node API online.

import { pathToFileURL } from 'node:url';
import { ConfigErrors } from '../config/index.js';
import { ResolveTypeError } from '../cosi/resource/meta/index.js';
import { UsageError } from './args.js';
import { ClientError } from './client/index.js';
import { applyConfigUsage, runApplyConfig } from './commands/apply-config.js';
import { configUsage, runConfig } from './commands/config.js';
import { cpUsage, runCp } from './commands/cp.js';
import { dmesgUsage, runDmesg } from './commands/dmesg.js';
import { eventsUsage, runEvents } from './commands/events.js';
import { genConfigUsage, runGenConfig } from './commands/gen-config.js';
import { genSecretsUsage, runGenSecrets } from './commands/gen-secrets.js';
import { getUsage, runGet } from './commands/get.js';
import { healthUsage, runHealth } from './commands/health.js';
import { inspectUsage, runInspect } from './commands/inspect.js';
import { logsUsage, runLogs } from './commands/logs.js';
import { lsUsage, runLs } from './commands/ls.js';
import { memoryUsage, runMemory } from './commands/memory.js';
import { mountsUsage, runMounts } from './commands/mounts.js';
import { processesUsage, runProcesses } from './commands/processes.js';
import { readUsage, runRead } from './commands/read.js';
import { rebootUsage, runReboot } from './commands/reboot.js';
import { resetUsage, runReset } from './commands/reset.js';
import { runServices, servicesUsage } from './commands/services.js';
import { runShutdown, shutdownUsage } from './commands/shutdown.js';
import { runValidate, validateUsage } from './commands/validate.js';
import { runVersion, versionUsage } from './commands/version.js';
import { consoleOutput, type Output } from './io.js';
import { moveLeadingFlags } from './leading-flags.js';
import { quietSNIWarning } from './quiet-warnings.js';

const usage = `usage:\n${[
  genSecretsUsage,
  genConfigUsage.split('\n')[0] ?? '',
  validateUsage,
  versionUsage,
  getUsage,
  configUsage,
  applyConfigUsage,
  servicesUsage,
  logsUsage,
  dmesgUsage,
  readUsage,
  memoryUsage,
  processesUsage,
  mountsUsage,
  eventsUsage,
  lsUsage,
  cpUsage,
  rebootUsage,
  shutdownUsage,
  resetUsage,
  healthUsage,
  inspectUsage,
]
  .map((u) => `  ${u.startsWith('keelctl ') ? u : `keelctl ${u}`}`)
  .join('\n')}
global flags of the node commands: --talosconfig <file>, --context <name>, -e|--endpoints <ep,..>, -n|--nodes <node,..>`;

/** Online commands, by name; each gets the rest of the command line and the signal that Ctrl-C aborts. */
const online: Readonly<
  Record<string, (argv: readonly string[], io: Output, signal: AbortSignal) => Promise<number>>
> = {
  version: runVersion,
  get: runGet,
  g: runGet,
  'apply-config': runApplyConfig,
  apply: runApplyConfig,
  services: runServices,
  service: runServices,
  logs: runLogs,
  dmesg: runDmesg,
  read: runRead,
  cat: runRead,
  memory: runMemory,
  processes: runProcesses,
  ps: runProcesses,
  mounts: runMounts,
  events: runEvents,
  ls: runLs,
  list: runLs,
  cp: runCp,
  copy: runCp,
  reboot: runReboot,
  shutdown: runShutdown,
  reset: runReset,
  health: runHealth,
  inspect: runInspect,
};

/** main runs one command and returns its exit code: 0 success, 1 failure (as talosctl). */
export async function main(
  argv: readonly string[],
  io: Output = consoleOutput,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  argv = moveLeadingFlags(argv);
  const [cmd, sub, ...rest] = argv;
  try {
    const command = cmd === undefined ? undefined : online[cmd];
    if (command) return await command(argv.slice(1), io, signal);
    if (cmd === 'config') return runConfig(argv.slice(1), io);
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
    else if (e instanceof ConfigErrors || e instanceof ClientError || e instanceof ResolveTypeError)
      io.err(`error: ${e.message}`);
    else io.err(`error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
}

// run only as the entry point, so tests can import main()
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Ctrl-C (or a TERM) ends watches and follows cleanly: streams are cancelled and the exit code kept.
  quietSNIWarning();
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort(new Error(sig)));
  process.exitCode = await main(process.argv.slice(2), consoleOutput, stop.signal);
  process.exit();
}
