// Merging a downloaded kubeconfig into an existing one, as talosctl does through go-kubeconfig: a clashing
// cluster, user or context that differs is renamed `<name>-1`, `-2` … or, forced, overwritten; the new
// context becomes current. Pure: parsed documents in, the merged document and what was renamed out.
import { isDeepStrictEqual } from 'node:util';

/** Kubeconfig is a kubeconfig document as parsed from YAML; fields Keel does not know are kept. */
export interface Kubeconfig {
  clusters?: Named[] | null;
  users?: Named[] | null;
  contexts?: Named[] | null;
  'current-context'?: string;
  [field: string]: unknown;
}
/** Named is one entry of a section: its name and its `cluster`, `user` or `context` body. */
export interface Named {
  name: string;
  [field: string]: unknown;
}

export interface MergeOptions {
  /** overwrite what clashes instead of renaming it */
  readonly force: boolean;
  /** the name the new context gets, whatever it was called */
  readonly contextName?: string;
}

type Section = 'clusters' | 'users' | 'contexts';
const NOUN: Readonly<Record<Section, string>> = {
  clusters: 'cluster',
  users: 'auth info',
  contexts: 'context',
};

const entries = (k: Kubeconfig, s: Section): Named[] => (k[s] ?? []) as Named[];
const find = (k: Kubeconfig, s: Section, name: string) => entries(k, s).find((e) => e.name === name);

/** freeName is the first of name, name-1, name-2 … not taken in the section (go-kubeconfig's rename). */
function freeName(k: Kubeconfig, s: Section, name: string): string {
  let candidate = name;
  for (let i = 1; find(k, s, candidate); i++) candidate = `${name}-${i}`;
  return candidate;
}

/** replaceAll renames inside a derived name (`admin@c` follows cluster `c` to `admin@c-1`). */
const renameWithin = (name: string, renames: ReadonlyMap<string, string>) => {
  let out = name;
  for (const [from, to] of renames) out = out.replaceAll(from, to);
  return out;
};

/** mergeKubeconfig returns `into` with `from` merged in, and a line per renamed entry. */
export function mergeKubeconfig(
  into: Kubeconfig,
  from: Kubeconfig,
  opts: MergeOptions,
): { merged: Kubeconfig; renamed: string[] } {
  const merged: Kubeconfig = structuredClone(into);
  const mapped: Record<Section, Map<string, string>> = {
    clusters: new Map(),
    users: new Map(),
    contexts: new Map(),
  };
  const plan = (s: Section, derivedFrom?: Section, check: Section = s) => {
    for (const e of entries(from, s)) {
      let name = derivedFrom ? renameWithin(e.name, mapped[derivedFrom]) : e.name;
      if (s === 'contexts' && opts.contextName) name = opts.contextName;
      const old = find(merged, check, name);
      if (old && !isDeepStrictEqual(old, { ...e, name }) && !opts.force) name = freeName(merged, check, name);
      mapped[s].set(e.name, name);
    }
  };
  plan('clusters');
  plan('users', 'clusters');
  // go-kubeconfig looks for a clashing context among the clusters: kept, so both tools name it alike
  plan('contexts', 'users', 'clusters');

  const renamed: string[] = [];
  const put = (s: Section, e: Named) => {
    const name = mapped[s].get(e.name)!;
    if (name !== e.name)
      renamed.push(`renamed ${NOUN[s]} ${JSON.stringify(e.name)} -> ${JSON.stringify(name)}`);
    const list = entries(merged, s).filter((x) => x.name !== name);
    list.push({ ...structuredClone(e), name });
    (merged as Record<Section, Named[]>)[s] = list;
    return name;
  };
  for (const e of entries(from, 'clusters')) put('clusters', e);
  for (const e of entries(from, 'users')) put('users', e);
  for (const e of entries(from, 'contexts')) {
    const ctx = (e.context ?? {}) as { cluster?: string; user?: string };
    const linked = {
      ...e,
      context: {
        ...ctx,
        cluster: mapped.clusters.get(ctx.cluster ?? '') ?? '',
        user: mapped.users.get(ctx.user ?? '') ?? '',
      },
    };
    merged['current-context'] = put('contexts', linked);
  }
  return { merged, renamed };
}
