// What each config source holds when the node starts, read raw and never thrown: STATE's config.yaml, the
// config embedded in the root filesystem, and the kernel command line. Choosing is config-acquire.ts's.
//
// Only node:fs here: start-node reads these before its maintenance API listens, to know whether any
// source could yield a config at all (decoding and validating them waits for the rest of the node).
import { readFileSync } from 'node:fs';
import { readPersistedConfig } from './config-store.js';

/** EMBEDDED_CONFIG_PATH is where an image carries a config of its own (upstream's path). */
export const EMBEDDED_CONFIG_PATH = '/usr/local/etc/talos/config.yaml';
/** the URL a platform downloads its config from (`metal`); needs the network */
export const KERNEL_PARAM_CONFIG = 'talos.config';
/** base64 of zstd of a config, read before the platform source; repeated arguments are concatenated */
export const KERNEL_PARAM_CONFIG_EARLY = 'talos.config.early';
/** the same encoding, read after the platform source */
export const KERNEL_PARAM_CONFIG_INLINE = 'talos.config.inline';

/** SourceRead is one source's raw content: nothing there, its bytes, or why it could not be read. */
export type SourceRead =
  | { readonly kind: 'absent' }
  | { readonly kind: 'present'; readonly data: Uint8Array }
  | { readonly kind: 'unreadable'; readonly error: string };

export interface ConfigSourceInputs {
  /** STATE's config.yaml (the state directory until the node has a STATE partition) */
  readonly state: SourceRead;
  /** the root filesystem's embedded config */
  readonly embedded: SourceRead;
  /** the kernel command line ('' in container mode: the host's is not the node's) */
  readonly cmdline: string;
}

export interface ReadSourcesOptions {
  readonly mode: 'container' | 'pid1';
  readonly stateDir: string;
  readonly embeddedPath?: string;
  readonly cmdlinePath?: string;
}

const ABSENT: SourceRead = { kind: 'absent' };

/** readConfigSources reads every source the mode has; a container node has only its state directory. */
export function readConfigSources(opts: ReadSourcesOptions): ConfigSourceInputs {
  const state = readSource(() => {
    const text = readPersistedConfig(opts.stateDir);
    return text === undefined ? undefined : Buffer.from(text);
  });
  // as upstream, a container has no command line of its own; nor does Keel's container mode an image
  if (opts.mode === 'container') return { state, embedded: ABSENT, cmdline: '' };
  const embedded = readSource(() => readIfExists(opts.embeddedPath ?? EMBEDDED_CONFIG_PATH));
  const cmdline = readSource(() => readIfExists(opts.cmdlinePath ?? '/proc/cmdline'));
  return {
    state,
    embedded,
    cmdline: cmdline.kind === 'present' ? Buffer.from(cmdline.data).toString('utf8').trim() : '',
  };
}

/** mayHoldConfig: some source has something to try; if none has, the node goes to maintenance at once. */
export function mayHoldConfig(inputs: ConfigSourceInputs): boolean {
  if (inputs.state.kind !== 'absent' || inputs.embedded.kind !== 'absent') return true;
  const args = kernelArgs(inputs.cmdline);
  return [KERNEL_PARAM_CONFIG_EARLY, KERNEL_PARAM_CONFIG_INLINE].some((k) => args.has(k));
}

/** kernelArgs splits a command line on blanks outside double quotes, dropping the quotes, as the kernel does. */
export function kernelArgs(cmdline: string): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const word of cmdline.match(/(?:[^\s"]+|"[^"]*"?)+/g) ?? []) {
    const arg = word.replace(/"/g, '');
    const eq = arg.indexOf('=');
    const key = eq < 0 ? arg : arg.slice(0, eq);
    const values = out.get(key) ?? [];
    values.push(eq < 0 ? '' : arg.slice(eq + 1));
    out.set(key, values);
  }
  return out;
}

function readSource(read: () => Uint8Array | undefined): SourceRead {
  try {
    const data = read();
    return data === undefined ? ABSENT : { kind: 'present', data };
  } catch (e) {
    return { kind: 'unreadable', error: (e as Error).message };
  }
}

function readIfExists(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
