// A small argument parser: long and short flags, `--flag=value`, repeated and comma-separated lists.

export type FlagKind = 'string' | 'bool' | 'list';

export interface FlagSpec {
  readonly kind: FlagKind;
  readonly short?: string;
  readonly default?: string | boolean;
  /** lists split each value on commas, as cobra's StringSlice does */
  readonly commas?: boolean;
  /** what the flag does: --help prints it, so every declared flag is documented where it is parsed */
  readonly usage: string;
  /** the value's type as --help names it, when the text stands for a Go duration or an integer */
  readonly type?: 'duration' | 'int';
}

/** Flags are a command's declarations, by long name; the parser and --help both read them. */
export type Flags = Readonly<Record<string, FlagSpec>>;

export type FlagValue = string | boolean | string[];

export interface ParsedArgs {
  readonly positional: readonly string[];
  readonly flags: ReadonlyMap<string, FlagValue>;
}

/** UsageError is a mistake on the command line: it names the flag or argument at fault. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** parseArgs reads argv against the declared flags; anything undeclared is a UsageError. */
export function parseArgs(argv: readonly string[], spec: Flags): ParsedArgs {
  const flags = new Map<string, FlagValue>();
  for (const [name, f] of Object.entries(spec)) {
    if (f.kind === 'list') flags.set(name, []);
    else if (f.default !== undefined) flags.set(name, f.default);
  }
  const byShort = new Map(Object.entries(spec).flatMap(([n, f]) => (f.short ? [[f.short, n] as const] : [])));
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const m = /^(--([\w-]+)|-(\w))(?:=(.*))?$/s.exec(arg);
    if (!m) {
      positional.push(arg);
      continue;
    }
    const name = m[2] ?? byShort.get(m[3]!);
    const f = name === undefined ? undefined : spec[name];
    if (!name || !f) throw new UsageError(`unknown flag: ${m[1]}`);
    let value = m[4];
    if (f.kind === 'bool') {
      if (value !== undefined && value !== 'true' && value !== 'false')
        throw new UsageError(`invalid value ${JSON.stringify(value)} for --${name}: expected true or false`);
      flags.set(name, value !== 'false');
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: --${name}`);
      value = argv[++i]!;
    }
    if (f.kind === 'string') flags.set(name, value);
    else {
      const items = f.commas ? value.split(',').filter((s) => s !== '') : [value];
      flags.set(name, [...(flags.get(name) as string[]), ...items]);
    }
  }
  return { positional, flags };
}

export const str = (a: ParsedArgs, name: string): string | undefined => {
  const v = a.flags.get(name);
  return typeof v === 'string' ? v : undefined;
};
export const bool = (a: ParsedArgs, name: string): boolean => a.flags.get(name) === true;
export const strs = (a: ParsedArgs, name: string): string[] => {
  const v = a.flags.get(name);
  return Array.isArray(v) ? v : [];
};
