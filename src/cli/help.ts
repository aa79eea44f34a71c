// --help text in cobra's layout (Usage, Aliases, Flags, Global Flags, one flag a line with its type and
// default), generated from the declarations the parser reads.
import type { FlagSpec, Flags } from './args.js';
import { type Command, helpFlag, spellings } from './command.js';
import { goDuration } from './output/index.js';
import { parseGoDuration } from './parse-duration.js';

const BIN = 'keelctl';

/** typeName is the word pflag prints after the flag: none for switches, "strings" for comma lists. */
function typeName(f: FlagSpec): string {
  if (f.kind === 'bool') return '';
  if (f.kind === 'list') return f.commas ? 'strings' : 'stringArray';
  return f.type ?? 'string';
}

/** defaultText is pflag's " (default …)", left out for zero values; strings are quoted, as %q does. */
function defaultText(f: FlagSpec): string {
  const d = f.default;
  if (d === undefined || d === false || d === '') return '';
  if (d === true) return ' (default true)';
  if (f.type === 'duration') return ` (default ${goDuration(parseGoDuration(d) * 1000)})`;
  if (f.type === 'int') return ` (default ${d})`;
  return ` (default ${JSON.stringify(d)})`;
}

/** flagLines lists flags sorted by name, the descriptions aligned three spaces after the longest flag. */
export function flagLines(flags: Flags): string[] {
  const rows = Object.entries(flags)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, f]) => {
      const type = typeName(f);
      const head = `${f.short ? `  -${f.short}, ` : '      '}--${name}${type ? ` ${type}` : ''}`;
      return [head, `${f.usage}${defaultText(f)}`] as const;
    });
  const width = Math.max(...rows.map(([head]) => head.length));
  return rows.map(([head, text]) => `${head.padEnd(width)}   ${text}`);
}

/** usageText is what a usage error prints under its message: the help without the summary. */
export function usageText(cmd: Command): string {
  const lines = ['Usage:', `  ${BIN} ${cmd.name}${cmd.args ? ` ${cmd.args}` : ''} [flags]`];
  if (cmd.aliases?.length) lines.push('', 'Aliases:', `  ${spellings(cmd).map(leaf).join(', ')}`);
  lines.push('', 'Flags:', ...flagLines({ ...cmd.flags, ...helpFlag(cmd) }));
  if (Object.keys(cmd.global).length) lines.push('', 'Global Flags:', ...flagLines(cmd.global));
  return lines.join('\n');
}

/** commandHelp is `keelctl <command> --help`. */
export const commandHelp = (cmd: Command): string => `${cmd.summary}\n\n${usageText(cmd)}`;

const leaf = (name: string) => name.split(' ').at(-1)!;

/** groupHelp lists the commands under `prefix` (all of them for the root), as cobra's parent commands do. */
export function groupHelp(commands: readonly Command[], prefix = ''): string {
  const under = commands.filter((c) => prefix === '' || c.name.startsWith(`${prefix} `));
  const depth = prefix === '' ? 0 : prefix.split(' ').length;
  // the root shows `gen` and `config` once each, as the groups they are
  const entries = new Map<string, string>();
  for (const c of under) {
    const words = c.name.split(' ');
    const word = words[depth]!;
    if (!entries.has(word)) entries.set(word, words.length > depth + 1 ? groupSummary(word) : c.summary);
  }
  const width = Math.max(...[...entries.keys()].map((w) => w.length));
  const path = prefix ? `${BIN} ${prefix}` : BIN;
  return [
    'Usage:',
    `  ${path} [command]`,
    '',
    'Available Commands:',
    ...[...entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([w, s]) => `  ${w.padEnd(width)}   ${s}`),
    '',
    `Use "${path} [command] --help" for more information about a command.`,
  ].join('\n');
}

const GROUPS: Readonly<Record<string, string>> = {
  config: 'Manage the client configuration file (talosconfig)',
  gen: 'Generate secrets and machine configurations',
  inspect: 'Inspect internals of the node',
};
const groupSummary = (word: string) => GROUPS[word] ?? `${word} commands`;
