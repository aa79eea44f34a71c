// Finding, reading and writing the client config (talosconfig): flag, then $KEELCONFIG or $TALOSCONFIG,
// then keelctl's own ~/.keel/config when it exists, then talosctl's ~/.talos/config.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  decodeTalosconfig,
  encodeTalosconfig,
  type Talosconfig,
  type TalosconfigContext,
} from '../../config/generate/talosconfig.js';
import { ClientError } from './errors.js';

export const TALOSCONFIG_ENV = 'TALOSCONFIG';
/** keelctl's own variable; it wins over $TALOSCONFIG so both tools can point at different files */
export const KEELCONFIG_ENV = 'KEELCONFIG';

/**
 * talosconfigPath picks the file as talosctl does (the flag wins, then the environment, then the home
 * default), with keelctl's own $KEELCONFIG and ~/.keel/config taking precedence over talosctl's.
 */
export function talosconfigPath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): string {
  if (flag) return flag;
  const fromEnv = env[KEELCONFIG_ENV] || env[TALOSCONFIG_ENV];
  if (fromEnv) return fromEnv;
  const home = env.HOME || homedir();
  const own = join(home, '.keel', 'config');
  return exists(own) ? own : join(home, '.talos', 'config');
}

/** readTalosconfig decodes the file; a missing or broken file is a config error naming the path. */
export function readTalosconfig(path: string): Talosconfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new ClientError('config', `failed to read config file ${JSON.stringify(path)}: ${why}`);
  }
  try {
    const cfg = decodeTalosconfig(text);
    return { context: cfg.context ?? '', contexts: cfg.contexts ?? {} };
  } catch (e) {
    throw new ClientError(
      'config',
      `failed to parse config file ${JSON.stringify(path)}: ${(e as Error).message}`,
    );
  }
}

/** readTalosconfigOrEmpty is for commands that create the file when it is absent (merge). */
export const readTalosconfigOrEmpty = (path: string): Talosconfig =>
  existsSync(path) ? readTalosconfig(path) : { context: '', contexts: {} };

/** writeTalosconfig saves with mode 0600: the file holds a client key. */
export function writeTalosconfig(path: string, cfg: Talosconfig): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, encodeTalosconfig(cfg), { mode: 0o600 });
}

/** currentContext is the named context (or the file's current one); a missing one is an error. */
export function currentContext(
  cfg: Talosconfig,
  name?: string,
): { readonly name: string; readonly context: TalosconfigContext } {
  const wanted = name || cfg.context;
  if (!wanted) throw new ClientError('config', 'no context is set in the client config: use --context');
  const context = cfg.contexts[wanted];
  if (!context) throw new ClientError('config', `context ${JSON.stringify(wanted)} is not defined`);
  return { name: wanted, context };
}
