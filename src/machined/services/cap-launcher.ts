// The capability launcher: a tiny program between machined and a service that drops capabilities, then
// execs the service. Node's spawn runs nothing between fork and exec, so the dropping happens here.
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { isSea } from 'node:sea';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { capabilityNumbers, dropCapabilities, setNoNewPrivs } from '../../sys/capabilities.js';
import { switchIdentity } from '../../sys/credentials.js';
import { execve } from '../../sys/exec.js';
import type { CapabilityLauncher } from './process-runner.js';

/** LaunchPlan is what the launcher is told on its command line, as JSON. */
export interface LaunchPlan {
  /** capability names to drop from every set */
  readonly drop: readonly string[];
  /** set no_new_privs before the exec */
  readonly noNewPrivs?: boolean;
  /** switch to these ids after dropping (the drop needs privileges the switch gives up) */
  readonly uid?: number;
  readonly gid?: number;
}

export interface CapLauncherOptions {
  /**
   * how to start the launcher's entry, e.g. `[node, entry.js]` or, for a single executable, the
   * executable and the argument that selects the launcher; default: this node and the entry file next
   * to this module (with a TypeScript loader when running from sources)
   */
  readonly command?: readonly string[];
  readonly noNewPrivs?: boolean;
}

/**
 * capLauncher is a CapabilityLauncher that rewrites argv to
 * `<command…> <json plan> -- <program> <args…>`. Unknown capability names throw here, in machined,
 * before anything is spawned.
 */
export function capLauncher(opts: CapLauncherOptions = {}): CapabilityLauncher {
  let command = opts.command;
  return (argv, drop, ids = {}) => {
    capabilityNumbers(drop);
    command ??= defaultCommand();
    const plan: LaunchPlan = { drop: [...drop], ...(opts.noNewPrivs ? { noNewPrivs: true } : {}), ...ids };
    return [...command, JSON.stringify(plan), '--', ...argv];
  };
}

/** defaultCapabilityLauncher is the launcher a process runner uses when none is given. */
export const defaultCapabilityLauncher: CapabilityLauncher = capLauncher();

/** CAP_LAUNCHER_ARG makes the single executable run as the launcher (machined's entry checks for it). */
export const CAP_LAUNCHER_ARG = '--cap-launcher';

function defaultCommand(): string[] {
  // the single executable has no entry file beside it: it is its own launcher
  if (isSea()) return [process.execPath, CAP_LAUNCHER_ARG];
  const ext = extname(fileURLToPath(import.meta.url));
  const entry = fileURLToPath(new URL(`./cap-launcher-entry${ext}`, import.meta.url));
  if (ext !== '.ts') return [process.execPath, entry];
  // from sources: load the TypeScript loader by absolute path, since the service's cwd may be anywhere
  const loader = createRequire(import.meta.url).resolve('tsx');
  return [process.execPath, '--import', pathToFileURL(loader).href, entry];
}

/** parseLaunchArgs splits `<json plan> -- <program> <args…>`. */
export function parseLaunchArgs(args: readonly string[]): { plan: LaunchPlan; argv: string[] } {
  const [json, sep, ...argv] = args;
  if (json === undefined || sep !== '--' || argv.length === 0)
    throw new Error('usage: cap-launcher <json plan> -- <program> [args…]');
  let plan: LaunchPlan;
  try {
    plan = JSON.parse(json) as LaunchPlan;
  } catch (cause) {
    throw new Error('cap-launcher: the plan is not JSON', { cause });
  }
  if (!Array.isArray(plan.drop) || !plan.drop.every((d) => typeof d === 'string'))
    throw new Error('cap-launcher: plan.drop must be a list of capability names');
  for (const k of ['uid', 'gid'] as const) {
    const v = plan[k];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0))
      throw new Error(`cap-launcher: plan.${k} must be a non-negative integer, got ${JSON.stringify(v)}`);
  }
  return { plan, argv };
}

/** findProgram resolves a bare name through PATH, as spawn would; a name with a slash is kept. */
export function findProgram(name: string, path = process.env.PATH ?? '/usr/bin:/bin'): string {
  if (name.includes('/')) return name;
  for (const dir of path.split(':').filter(Boolean)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here: try the next directory
    }
  }
  throw new Error(`${JSON.stringify(name)} not found in PATH`);
}

/**
 * launch drops the planned capabilities and execs the program, keeping stdio and the environment.
 * It returns only by throwing.
 */
export function launch(args: readonly string[]): never {
  const { plan, argv } = parseLaunchArgs(args);
  const file = findProgram(argv[0]!);
  dropCapabilities(capabilityNumbers(plan.drop));
  switchIdentity({
    ...(plan.uid !== undefined ? { uid: plan.uid } : {}),
    ...(plan.gid !== undefined ? { gid: plan.gid } : {}),
  });
  if (plan.noNewPrivs) setNoNewPrivs();
  return execve(file, argv);
}

/** launcherMain is the launcher program: launch, or report why not and exit 127 as a shell would. */
export function launcherMain(args: readonly string[]): never {
  try {
    return launch(args);
  } catch (e) {
    process.stderr.write(`cap-launcher: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(127);
  }
}
