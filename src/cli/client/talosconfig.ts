// Finding, reading and writing the client config (talosconfig): flag, then $TALOSCONFIG, then ~/.talos/config.
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

/** talosconfigPath picks the file as talosctl does: the flag wins, then the environment, then the home default. */
export function talosconfigPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  const fromEnv = env[TALOSCONFIG_ENV];
  if (fromEnv) return fromEnv;
  return join(env.HOME || homedir(), '.talos', 'config');
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
