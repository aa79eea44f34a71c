// The shared libraries programs need, found in an unpacked tree of Debian packages as the dynamic loader
// would find them on a system of those packages: the interpreter, then each DT_NEEDED name in the file's
// run path and Debian's amd64 library directories, recursively. Read from the files, not from the
// packages' dependencies, which also name what only other programs of a package use.
import { lstat, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { readElfDeps } from '../rootfs/elf.js';
import { ComponentsError } from './errors.js';

/** where Debian's amd64 ld.so looks for a name its run path lacks, with no /etc/ld.so.cache */
export const LIBRARY_DIRS = ['/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib', '/usr/lib'];

/** as the kernel's limit on links followed in one lookup */
const MAX_LINKS = 40;

/**
 * resolveInTree follows `path` (absolute, inside the tree at `root`) through its symbolic links, each read
 * in the tree, never on the host: every path on the way, the regular file last; undefined when it leads
 * nowhere. The tree's directories are real ones (unpacked packages carry no directory links).
 */
export async function resolveInTree(root: string, path: string): Promise<string[] | undefined> {
  const chain: string[] = [];
  for (let p = posix.normalize(path); chain.length <= MAX_LINKS; ) {
    chain.push(p);
    const st = await lstat(join(root, p)).catch(() => undefined);
    if (!st) return undefined;
    if (st.isFile()) return chain;
    if (!st.isSymbolicLink()) return undefined;
    p = posix.resolve(posix.dirname(p), await readlink(join(root, p)));
  }
  throw new ComponentsError('build', `${path}: more than ${MAX_LINKS} links to follow`);
}

/**
 * sharedLibraries lists what the dynamic loader opens to run `programs` (regular files, absolute paths in
 * the tree at `root`): the paths it looks up and the links it follows on the way, sorted. A file that is
 * not ELF (a script) needs nothing; a name found nowhere in the tree fails the build.
 */
export async function sharedLibraries(root: string, programs: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const read = new Set<string>();
  const queue = [...programs];
  const take = (chain: readonly string[]) => {
    for (const p of chain) found.add(p);
    queue.push(chain.at(-1)!);
  };
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (read.has(file)) continue;
    read.add(file);
    const deps = await readElfDeps(join(root, file));
    if (!deps) continue;
    if (deps.interpreter) {
      const chain = await resolveInTree(root, deps.interpreter);
      if (!chain)
        throw new ComponentsError('build', `${file}: its loader ${deps.interpreter} is in no package`);
      take(chain);
    }
    // $ORIGIN and the like would need the loader's expansion; Debian's packages use none
    if (deps.searchPath.some((d) => d.includes('$') || !d.startsWith('/')))
      throw new ComponentsError('build', `${file}: run path ${deps.searchPath.join(':')} is not supported`);
    for (const name of deps.needed) {
      const chain = await findLibrary(root, name, [...deps.searchPath, ...LIBRARY_DIRS]);
      if (!chain) throw new ComponentsError('build', `${file} needs ${name}, which no package holds`);
      take(chain);
    }
  }
  return [...found].sort();
}

/** findLibrary looks `name` up in each directory in turn, as the loader does */
async function findLibrary(
  root: string,
  name: string,
  dirs: readonly string[],
): Promise<string[] | undefined> {
  for (const dir of dirs) {
    const chain = await resolveInTree(root, posix.join(dir, name));
    if (chain) return chain;
  }
  return undefined;
}
