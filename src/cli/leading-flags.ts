// Global flags may come before the command, as talosctl (cobra) allows: `keelctl -n 10.5.0.2 version`.

/** Global flags that take a value; every other leading flag is taken as a switch. */
const WITH_VALUE = new Set(['--talosconfig', '--context', '-e', '--endpoints', '-n', '--nodes']);

/**
 * moveLeadingFlags returns argv with the flags in front of the command moved behind it, where each
 * command parses them; `--flag=value` and `--flag value` forms both move whole.
 */
export function moveLeadingFlags(argv: readonly string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '--' && !isHelp(argv[i]!)) {
    const flag = argv[i]!;
    leading.push(flag);
    i++;
    if (WITH_VALUE.has(flag) && i < argv.length) leading.push(argv[i++]!);
  }
  if (leading.length === 0) return [...argv];
  const rest = argv.slice(i);
  // a command with a subcommand ("gen config", "config endpoint") keeps both words in front
  const words = rest.length > 1 && (rest[0] === 'gen' || rest[0] === 'config') ? 2 : 1;
  return [...rest.slice(0, words), ...leading, ...rest.slice(words)];
}

const isHelp = (a: string) => a === '-h' || a === '--help';
