// The config a node boots with, chosen from its sources in upstream's order (AcquireController): STATE's
// config.yaml, the embedded config, `talos.config.early=`, `talos.config.inline=`, then maintenance mode.
// Pure: it takes what each source held (config-sources.ts) and says what to use and where it came from.
import { Decompress } from 'fzstd';
import { parseConfig } from '../../api/machine-stateful/index.js';
import type { Config } from '../../config/index.js';
import { completeForBoot } from './config-host.js';
import {
  type ConfigSourceInputs,
  KERNEL_PARAM_CONFIG,
  KERNEL_PARAM_CONFIG_EARLY,
  KERNEL_PARAM_CONFIG_INLINE,
  kernelArgs,
  type SourceRead,
} from './config-sources.js';

/** ConfigSource names a source as upstream's "machine config loaded successfully" log line does. */
export type ConfigSource = 'state' | 'embedded' | 'cmdline-early' | 'cmdline-late';

/** A config one source yielded, with its text as the source held it. */
export interface SourcedConfig {
  readonly cfg: Config;
  readonly text: string;
  readonly source: ConfigSource;
}

/** Acquired: a config complete for boot, or maintenance mode with the last partial config to apply. */
export type Acquired =
  | {
      readonly kind: 'config';
      readonly config: SourcedConfig;
      /** every source that yielded a config, partial ones included, in order */
      readonly sources: readonly ConfigSource[];
      /** what was skipped and why, for the log */
      readonly notes: readonly string[];
    }
  | {
      readonly kind: 'maintenance';
      readonly partial?: SourcedConfig;
      readonly sources: readonly ConfigSource[];
      readonly notes: readonly string[];
    };

/** What a source holds: nothing, config bytes, or why they could not be had. */
type Yield = { readonly kind: 'absent' } | { readonly kind: 'bytes'; readonly data: Uint8Array } | Bad;
type Bad = { readonly kind: 'bad'; readonly error: string };

interface Step {
  readonly source: ConfigSource;
  /** how the log names where the source is */
  readonly where: string;
  readonly read: () => Yield;
}

/**
 * acquireConfig walks the sources in order and stops at the first config complete for boot. A partial
 * config is kept, and a later source's config replaces it (upstream's SetConfig). As upstream, a partial
 * config from STATE goes straight to maintenance mode: it is what the node was last told. Unlike upstream,
 * whose controller then fails, a source with bad content (unreadable, bad base64 or zstd, bad YAML, an
 * invalid config) is noted and the next one tried: the node must come up to be fixed.
 */
export function acquireConfig(inputs: ConfigSourceInputs, mode: 'container' | 'metal'): Acquired {
  const args = kernelArgs(inputs.cmdline);
  const notes: string[] = [];
  const sources: ConfigSource[] = [];
  let partial: SourcedConfig | undefined;
  const steps: Step[] = [
    { source: 'state', where: 'config.yaml on STATE', read: () => fromRead(inputs.state) },
    { source: 'embedded', where: 'the embedded config', read: () => fromRead(inputs.embedded) },
    cmdlineStep('cmdline-early', KERNEL_PARAM_CONFIG_EARLY, args.get(KERNEL_PARAM_CONFIG_EARLY)),
    cmdlineStep('cmdline-late', KERNEL_PARAM_CONFIG_INLINE, args.get(KERNEL_PARAM_CONFIG_INLINE)),
  ];
  for (const step of steps) {
    // the platform source comes between the two command line ones; `metal`'s download needs the network
    if (step.source === 'cmdline-late' && args.has(KERNEL_PARAM_CONFIG))
      notes.push(`config: ${KERNEL_PARAM_CONFIG}= (a platform download) is not supported yet, ignored`);
    const got = step.read();
    if (got.kind === 'absent') continue;
    const parsed = got.kind === 'bytes' ? parse(got.data, mode) : got;
    if (parsed.kind === 'bad') {
      notes.push(`config: ${step.source} (${step.where}): ${oneLine(parsed.error)}; trying the next source`);
      continue;
    }
    const config: SourcedConfig = { cfg: parsed.cfg, text: parsed.text, source: step.source };
    sources.push(step.source);
    if (completeForBoot(config.cfg)) return { kind: 'config', config, sources, notes };
    notes.push(
      `config: ${step.source} (${step.where}): not complete for boot, kept until a source completes it`,
    );
    partial = config;
    if (step.source === 'state') break;
  }
  return { kind: 'maintenance', ...(partial ? { partial } : {}), sources, notes };
}

/** decodeCmdlineConfig undoes `base64(zstd(config))`, the values of a repeated argument concatenated first. */
export function decodeCmdlineConfig(values: readonly string[]): Uint8Array {
  const b64 = values.join('');
  // Go's StdEncoding: padded, and nothing outside the alphabet (Buffer.from would skip such characters)
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
    throw new Error('not valid base64 (standard alphabet, padded)');
  const chunks: Uint8Array[] = [];
  let size = 0;
  // streamed, so a frame that claims or expands to more than any config is refused before it is held
  const zstd = new Decompress((chunk) => {
    size += chunk.length;
    if (size > MAX_CMDLINE_CONFIG_BYTES) throw new TooLarge();
    chunks.push(chunk);
  });
  try {
    zstd.push(Buffer.from(b64, 'base64'), true);
  } catch (e) {
    if (e instanceof TooLarge)
      throw new Error(`decompresses to more than ${MAX_CMDLINE_CONFIG_BYTES / 1024 / 1024} MiB`);
    throw new Error(`not valid zstd: ${(e as Error).message}`, { cause: e });
  }
  return Buffer.concat(chunks);
}

/** The most a command line's config may decompress to: a config is kilobytes, a few hundred with files. */
export const MAX_CMDLINE_CONFIG_BYTES = 4 * 1024 * 1024;

class TooLarge extends Error {}

function cmdlineStep(source: ConfigSource, param: string, values: readonly string[] | undefined): Step {
  return {
    source,
    where: `${param}=`,
    read: () => {
      if (values === undefined) return { kind: 'absent' };
      try {
        return { kind: 'bytes', data: decodeCmdlineConfig(values) };
      } catch (e) {
        return { kind: 'bad', error: (e as Error).message };
      }
    },
  };
}

/** oneLine keeps a note on one log line: decode errors list their findings on lines of their own. */
const oneLine = (s: string) => s.replace(/\s*\n[\s*]*/g, ' ').trim();

function fromRead(r: SourceRead): Yield {
  if (r.kind === 'present') return { kind: 'bytes', data: r.data };
  if (r.kind === 'unreadable') return { kind: 'bad', error: `cannot read: ${r.error}` };
  return r;
}

function parse(
  data: Uint8Array,
  mode: 'container' | 'metal',
): { kind: 'ok'; cfg: Config; text: string } | Bad {
  try {
    return { kind: 'ok', cfg: parseConfig(data, mode).cfg, text: Buffer.from(data).toString('utf8') };
  } catch (e) {
    return { kind: 'bad', error: (e as Error).message };
  }
}
