// Finding the command on a command line. Global flags may come before it, as talosctl (cobra) allows:
// `keelctl -n 10.5.0.2 version`, `keelctl -i shutdown`; they are handed to the command with the rest.

import { globalFlags } from './client/index.js';
import { type Command, spellings } from './command.js';

/** The leading flags that take a value, from the global flag declarations: `-n x`, `--talosconfig f`. */
const WITH_VALUE = new Set(
  Object.entries(globalFlags).flatMap(([name, f]) =>
    f.kind === 'bool' ? [] : [`--${name}`, ...(f.short ? [`-${f.short}`] : [])],
  ),
);

export type Resolved =
  /** a command, with every argument but its words, leading flags first */
  | { readonly kind: 'command'; readonly command: Command; readonly argv: readonly string[] }
  /** the words name a group (`gen`, `config`) but not one of its commands */
  | {
      readonly kind: 'group';
      readonly group: string;
      readonly sub?: string;
      readonly argv: readonly string[];
    }
  /** no command word at all, or an unknown one */
  | { readonly kind: 'root'; readonly word?: string; readonly argv: readonly string[] };

/** resolve finds the longest command name (one or two words) after any leading flags. */
export function resolve(argv: readonly string[], commands: readonly Command[]): Resolved {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '--') {
    const flag = argv[i++]!;
    leading.push(flag);
    if (WITH_VALUE.has(flag) && i < argv.length) leading.push(argv[i++]!);
  }
  const rest = argv.slice(i);
  for (const n of [2, 1]) {
    if (rest.length < n) continue;
    const words = rest.slice(0, n).join(' ');
    const command = commands.find((c) => spellings(c).includes(words));
    if (command) return { kind: 'command', command, argv: [...leading, ...rest.slice(n)] };
  }
  const [word, sub] = rest;
  if (word !== undefined && commands.some((c) => c.name.startsWith(`${word} `)))
    return {
      kind: 'group',
      group: word,
      ...(sub !== undefined ? { sub } : {}),
      argv: [...leading, ...rest.slice(1)],
    };
  return { kind: 'root', ...(word !== undefined ? { word } : {}), argv: [...leading, ...rest.slice(1)] };
}
