// Path resolution and shared-library lookup over a file tree seen from inside the image: either the
// in-memory index of extracted packages (while selecting) or a real directory (to check the result).
import { lstatSync, readlinkSync } from 'node:fs';
import { join, posix } from 'node:path';
import { readElfDeps } from './elf.js';

export type NodeKind = 'file' | 'dir' | 'symlink';
export interface TreeNode {
  kind: NodeKind;
  /** symlink text, as stored */
  target?: string;
  /** where the bytes live on the build host (files) */
  host?: string;
}
/** Lookup answers lstat for an absolute image path; undefined means it does not exist. */
export type Lookup = (path: string) => TreeNode | undefined;

/** ld.so's built-in search path on Debian amd64; the image has no ld.so.cache, so this is all it uses. */
export const DEFAULT_LIB_DIRS = ['/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib', '/usr/lib'];
const MAX_SYMLINKS = 40; // the kernel's limit

export interface Resolved {
  /** the path with every symlink resolved */
  path: string;
  node: TreeNode;
  /** symlinks crossed on the way, in order */
  via: string[];
}

/** resolve follows symlinks the way the kernel would inside the image's root. */
export function resolve(look: Lookup, path: string): Resolved | undefined {
  const parts = path.split('/').filter(Boolean);
  const cur: string[] = [];
  const via: string[] = [];
  let node: TreeNode = { kind: 'dir' };
  let hops = 0;
  while (parts.length) {
    const c = parts.shift()!;
    if (c === '.') continue;
    if (c === '..') {
      cur.pop();
      continue;
    }
    const here = `/${[...cur, c].join('/')}`;
    const n = look(here);
    if (!n) return undefined;
    if (n.kind === 'symlink') {
      if (++hops > MAX_SYMLINKS) return undefined;
      via.push(here);
      const t = n.target ?? '';
      parts.unshift(...t.split('/').filter(Boolean));
      if (t.startsWith('/')) cur.length = 0;
      node = { kind: 'dir' };
      continue;
    }
    if (parts.length && n.kind !== 'dir') return undefined;
    cur.push(c);
    node = n;
  }
  return { path: `/${cur.join('/')}`, node, via };
}

/**
 * findLibrary searches for a DT_NEEDED entry (or the interpreter) as ld.so would: a name with a slash is
 * a path; a soname goes through the run path first ($ORIGIN expanded), then the defaults.
 */
export function findLibrary(
  look: Lookup,
  soname: string,
  searchPath: readonly string[],
  origin: string,
): Resolved | undefined {
  const dirs = [...searchPath.map((d) => d.replace(/\$(ORIGIN|\{ORIGIN\})/g, origin)), ...DEFAULT_LIB_DIRS];
  const paths = soname.includes('/')
    ? [posix.resolve(origin, soname)]
    : dirs.map((d) => posix.join(d, soname));
  for (const p of paths) {
    const r = resolve(look, p);
    if (r?.node.kind === 'file') return r;
  }
  return undefined;
}

export interface Unresolved {
  binary: string;
  soname: string;
  /** the manifest entry that pulled binary in, when binary is itself a library */
  for?: string;
}

/** lookupDir reads a real directory as the root of an image. */
export function lookupDir(root: string): Lookup {
  return (p) => {
    const host = join(root, p);
    try {
      const st = lstatSync(host);
      if (st.isSymbolicLink()) return { kind: 'symlink', target: readlinkSync(host), host };
      return { kind: st.isDirectory() ? 'dir' : 'file', host };
    } catch {
      return undefined;
    }
  };
}

/**
 * checkClosure lists every interpreter and DT_NEEDED entry of the given files that does not resolve
 * inside the tree; files are image paths, and those that are not ELF are skipped.
 */
export async function checkClosure(
  look: Lookup,
  files: readonly string[],
): Promise<{ elfFiles: number; unresolved: Unresolved[] }> {
  const out: Unresolved[] = [];
  let elfFiles = 0;
  for (const f of files) {
    const host = look(f)?.host;
    if (!host) continue;
    const deps = await readElfDeps(host);
    if (!deps) continue;
    elfFiles++;
    for (const so of [...(deps.interpreter ? [deps.interpreter] : []), ...deps.needed]) {
      if (!findLibrary(look, so, deps.searchPath, posix.dirname(f))) out.push({ binary: f, soname: so });
    }
  }
  return { elfFiles, unresolved: out };
}
