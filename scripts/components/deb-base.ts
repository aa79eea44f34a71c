// The files of an image's base (images/components.yaml, key base): the named files of pinned Debian
// packages (a directory: every file under it, as plugins a program loads by name), each link with what it
// points at, the shared libraries they need (shared-libraries.ts), and the names the packages' maintainer
// scripts would add (update-alternatives), with the modes the packages give them. A package none of this
// comes from fails the build, so the pins are exactly what the base needs.
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { extractDeb, fetchPinnedDeb } from './deb.js';
import { ComponentsError } from './errors.js';
import type { DebBase } from './image-manifest.js';
import type { OciFile } from './oci-archive.js';
import { resolveInTree, sharedLibraries } from './shared-libraries.js';

/** debBaseFiles lays out `base` from its packages (cached in `debs`), unpacked under `work`. */
export async function debBaseFiles(
  base: DebBase,
  debs: string,
  work: string,
  arch: string,
): Promise<OciFile[]> {
  const tree = join(work, 'base');
  /** which package each path of the tree comes from */
  const owner = new Map<string, string>();
  for (const deb of base.debs) {
    const file = await fetchPinnedDeb(deb, debs, arch);
    const own = join(work, 'base-debs', deb.package);
    await extractDeb(file, own);
    for (const p of await walk(own, '/')) owner.set(p, deb.package);
    await extractDeb(file, tree);
  }

  const paths = new Set<string>();
  const programs: string[] = [];
  const follow = async (path: string, what: string) => {
    const chain = await resolveInTree(tree, path);
    if (!chain) throw new ComponentsError('build', `${what}: ${path} is in none of the base's packages`);
    for (const p of chain) paths.add(p);
    programs.push(chain.at(-1)!);
  };
  for (const f of base.files) {
    const st = await lstat(join(tree, f)).catch(() => undefined);
    for (const p of st?.isDirectory() ? await walk(tree, f) : [f]) await follow(p, f);
  }
  for (const l of base.links) await follow(posix.resolve(posix.dirname(l.path), l.target), l.path);
  for (const p of await sharedLibraries(tree, programs)) paths.add(p);

  const unused = base.debs.filter((d) => ![...paths].some((p) => owner.get(p) === d.package));
  if (unused.length)
    throw new ComponentsError(
      'build',
      `the base needs nothing of ${unused.map((d) => d.package).join(', ')}: drop ${unused.length > 1 ? 'them' : 'it'}`,
    );
  const files = await Promise.all(
    [...paths].sort().map(async (path): Promise<OciFile> => {
      const at = join(tree, path);
      const st = await lstat(at);
      return st.isSymbolicLink()
        ? { path, type: 'symlink', target: await readlink(at) }
        : { path, type: 'file', mode: st.mode & 0o7777, content: await readFile(at) };
    }),
  );
  return [...files, ...base.links.map((l): OciFile => ({ path: l.path, type: 'symlink', target: l.target }))];
}

/** walk lists the files and links under `dir` (absolute, in the tree at `root`), sorted */
async function walk(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, dir), { withFileTypes: true })) {
    const p = posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(root, p)));
    else out.push(p);
  }
  return out.sort();
}
