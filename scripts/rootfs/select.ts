// Chooses the image's files: the manifest's paths, the symlinks and targets they name, and the
// shared-library closure of every ELF among them, all looked up in the extracted packages.
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { readElfDeps } from './elf.js';
import { RootfsError } from './errors.js';
import type { Manifest } from './manifest.js';
import { findLibrary, type Lookup, resolve, type TreeNode, type Unresolved } from './tree.js';

export interface Entry extends TreeNode {
  /** owning package; '' for the image's own top-level symlinks */
  pkg: string;
  /** permission bits as shipped */
  mode: number;
}

/** Merged /usr as Debian 12 installs it: these top-level names are symlinks into /usr. */
export const MERGED_USR = ['bin', 'sbin', 'lib', 'lib64'];

/** PackageIndex is every extracted package's files at their merged-/usr path. */
export class PackageIndex {
  readonly #nodes = new Map<string, Entry>();
  readonly #owned = new Map<string, Set<string>>();
  readonly #conflicts = new Map<string, string[]>();

  constructor() {
    for (const d of MERGED_USR)
      this.#nodes.set(`/${d}`, { kind: 'symlink', target: `usr/${d}`, pkg: '', mode: 0o777 });
  }

  readonly look: Lookup = (p) => this.#nodes.get(p);

  /** addTree indexes a directory (an extracted package) as pkg's files. */
  async addTree(pkg: string, root: string): Promise<void> {
    const walk = async (rel: string): Promise<void> => {
      for (const name of (await readdir(join(root, rel))).sort()) {
        const r = posix.join(rel, name);
        const host = join(root, r);
        const st = await lstat(host);
        const kind = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : 'file';
        if (kind === 'file' && !st.isFile())
          throw new RootfsError('package', `${pkg}: /${r} is not a regular file`);
        const target = kind === 'symlink' ? await readlink(host) : undefined;
        this.add(pkg, mergedPath(`/${r}`), { kind, host, target, mode: st.mode & 0o7777 });
        if (kind === 'dir') await walk(r);
      }
    };
    await walk('');
  }

  /** add places one node; parent directories appear implicitly. */
  add(pkg: string, path: string, node: TreeNode & { mode: number }): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const dir = `/${parts.slice(0, i).join('/')}`;
      if (!this.#nodes.has(dir)) this.#nodes.set(dir, { kind: 'dir', pkg, mode: 0o755 });
    }
    const had = this.#nodes.get(path);
    if (node.kind === 'dir') {
      if (!had) this.#nodes.set(path, { ...node, pkg });
      return;
    }
    if (!this.#owned.has(pkg)) this.#owned.set(pkg, new Set());
    this.#owned.get(pkg)!.add(path);
    if (had && had.kind !== 'dir') {
      this.#conflicts.set(path, [...(this.#conflicts.get(path) ?? [had.pkg]), pkg]);
      return;
    }
    this.#nodes.set(path, { ...node, pkg });
  }

  owns(pkg: string, path: string): boolean {
    return this.#owned.get(pkg)?.has(path) ?? false;
  }

  ownedBy(pkg: string): string[] {
    return [...(this.#owned.get(pkg) ?? [])].sort();
  }

  conflict(path: string): string[] | undefined {
    return this.#conflicts.get(path);
  }
}

/** mergedPath maps a path as a package ships it to where it lives on a merged-/usr system. */
export function mergedPath(p: string): string {
  const parts = p.split('/').filter(Boolean);
  if (parts.length && MERGED_USR.includes(parts[0]!)) parts.unshift('usr');
  return `/${parts.join('/')}`;
}

export interface Selection {
  /** image path → entry, for files and symlinks */
  entries: Map<string, Entry>;
  /** sonames nobody in the manifest ships */
  missing: Unresolved[];
}

/** select expands the manifest over the index and closes it under symlinks and DT_NEEDED. */
export async function select(
  index: PackageIndex,
  manifest: Manifest,
  extra: readonly string[],
): Promise<Selection> {
  const entries = new Map<string, Entry>();
  const queue: string[] = [];
  // first requester of each library, so an error can name the tool that pulled it in
  const wantedBy = new Map<string, string>();
  const put = (path: string) => {
    const e = index.look(path) as Entry;
    if (entries.has(path) || e.pkg === '') return;
    const others = index.conflict(path);
    if (others)
      throw new RootfsError('package', `${path} is shipped by several packages: ${others.join(', ')}`);
    entries.set(path, e);
    if (e.kind === 'file') queue.push(path);
  };
  const take = (path: string, why: string) => {
    const r = resolve(index.look, path);
    if (r?.node.kind !== 'file') {
      throw new RootfsError('package', `${path} (${why}) does not resolve to a file in the listed packages`);
    }
    for (const v of r.via) put(v);
    put(r.path);
  };

  for (const [pkg, paths] of [...manifest.packages].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const p of paths) {
      const want = mergedPath(p);
      if (/[*?[]/.test(p)) {
        const re = globRegExp(want);
        const hits = index.ownedBy(pkg).filter((f) => re.test(f));
        if (!hits.length)
          throw new RootfsError('manifest', `packages.${pkg}: no file in ${pkg} matches ${p}`);
        for (const h of hits) take(h, `packages.${pkg}`);
      } else if (!index.owns(pkg, want)) {
        throw new RootfsError('manifest', `packages.${pkg}: package ${pkg} does not contain ${p}`);
      } else {
        take(want, `packages.${pkg}`);
      }
    }
  }
  for (const p of extra) take(p, 'keel');

  const missing: Unresolved[] = [];
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
    const deps = await readElfDeps(entries.get(f)!.host!);
    if (!deps) continue;
    for (const so of [...(deps.interpreter ? [deps.interpreter] : []), ...deps.needed]) {
      const r = findLibrary(index.look, so, deps.searchPath, posix.dirname(f));
      if (!r) {
        let top = f;
        while (wantedBy.has(top)) top = wantedBy.get(top)!;
        missing.push({ binary: f, soname: so, ...(top !== f && { for: top }) });
        continue;
      }
      for (const v of r.via) put(v);
      if (!entries.has(r.path)) wantedBy.set(r.path, f);
      put(r.path);
    }
  }
  return { entries, missing };
}

function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}
