// A keelctl command as data: its words, arguments, flags and the global flags it takes, read by the
// dispatcher to parse the command line and by --help to describe it, so the two cannot disagree.
import type { Flags, ParsedArgs } from './args.js';
import type { Output } from './io.js';

export interface Command {
  /** the words that select it: `version`, `gen config` */
  readonly name: string;
  /** other spellings of the last word (`ps` for `processes`, `endpoints` for `config endpoint`) */
  readonly aliases?: readonly string[];
  /** the positional arguments as the Usage line shows them */
  readonly args?: string;
  /** one line on what it does */
  readonly summary: string;
  /** the command's own flags */
  readonly flags: Flags;
  /** the global flags it takes (talosconfig, context, endpoints, nodes), shown apart as cobra does */
  readonly global: Flags;
  run(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> | number;
}

/** spellings are every full name a command answers to, its own first. */
export function spellings(cmd: Command): string[] {
  const words = cmd.name.split(' ');
  const head = words.slice(0, -1);
  return [cmd.name, ...(cmd.aliases ?? []).map((a) => [...head, a].join(' '))];
}

/** The help switch every command takes; handled before the command runs. */
export const helpFlag = (cmd: Command): Flags => ({
  help: { kind: 'bool', short: 'h', usage: `help for ${cmd.name.split(' ').at(-1)}` },
});
