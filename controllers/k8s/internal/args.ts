// Command-line arguments of a Kubernetes component as upstream's argsbuilder keeps them: a flag to its
// values, merged with the user's extra arguments under a policy per flag, rendered sorted by flag as
// `--flag=value`, one per value.
import { K8sConfigError } from './errors.js';

export type Args = Map<string, string[]>;

/** overwrite: the extra value replaces ours; additive: comma lists joined, duplicates dropped; denied: refused. */
export type MergePolicy = 'overwrite' | 'additive' | 'denied';

/** mergeArgs folds `extra` into a copy of `base`; a denied flag is refused, naming it, as upstream. */
export function mergeArgs(
  base: Args,
  extra: ReadonlyMap<string, readonly string[]>,
  policies: Readonly<Record<string, MergePolicy>> = {},
): Args {
  const out: Args = new Map([...base].map(([k, v]) => [k, [...v]]));
  for (const key of [...extra.keys()].sort()) {
    const values = extra.get(key)!;
    const policy = policies[key] ?? 'overwrite';
    if (policy === 'denied') throw new K8sConfigError(`extra arg "${key}" is not allowed`);
    if (policy === 'overwrite') {
      out.set(key, [...values]);
      continue;
    }
    const seen = new Set<string>();
    for (const v of [...(out.get(key) ?? []), ...values].join(',').split(','))
      if (v.trim() !== '') seen.add(v.trim());
    out.set(key, [[...seen].join(',')]);
  }
  return out;
}

/** argList renders the arguments, sorted by flag. */
export function argList(args: Args): string[] {
  return [...args.keys()].sort().flatMap((k) => args.get(k)!.map((v) => `--${k}=${v}`));
}
