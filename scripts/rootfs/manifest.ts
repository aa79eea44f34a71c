// The rootfs manifest (images/rootfs.yaml): which Debian packages go in and which of their files.
// Validated strictly so a typo fails the build instead of silently dropping a tool.
import { parseDocument } from 'yaml';
import { RootfsError } from './errors.js';

export interface Manifest {
  /** package → the paths (as the package ships them; `*` globs within one path segment) to take */
  packages: ReadonlyMap<string, readonly string[]>;
  /** packages that may only supply shared libraries to the closure */
  libraries: readonly string[];
}

const KEYS = ['packages', 'libraries'];
const PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+$/;

/** parseManifest validates manifest text; errors name the file and the offending key or entry. */
export function parseManifest(text: string, source = 'manifest'): Manifest {
  const fail = (msg: string): never => {
    throw new RootfsError('manifest', `${source}: ${msg}`);
  };
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) fail(doc.errors.map((e) => e.message).join('; '));
  const raw: unknown = doc.toJS();
  if (!isRecord(raw)) return fail('top level must be a mapping with keys packages, libraries');
  for (const k of Object.keys(raw)) {
    if (!KEYS.includes(k)) fail(`unknown top-level key '${k}' (allowed: ${KEYS.join(', ')})`);
  }

  if (!isRecord(raw.packages) || !Object.keys(raw.packages).length) {
    fail('packages: must be a non-empty mapping of package name to a list of paths');
  }
  const packages = new Map<string, string[]>();
  for (const [name, paths] of Object.entries(raw.packages as Record<string, unknown>)) {
    if (!PACKAGE_NAME.test(name)) fail(`packages.${name}: not a Debian package name`);
    if (!Array.isArray(paths) || !paths.length) fail(`packages.${name}: must be a non-empty list of paths`);
    const seen = new Set<string>();
    for (const [i, p] of (paths as unknown[]).entries()) {
      const at = `packages.${name}[${i}]`;
      if (typeof p !== 'string' || !p.startsWith('/')) return fail(`${at}: must be an absolute path`);
      if (p.split('/').some((s) => s === '..' || s === '.')) fail(`${at}: '.' and '..' are not allowed`);
      if (p.endsWith('/')) fail(`${at}: name files, not directories (use a * glob)`);
      if (seen.has(p)) fail(`${at}: '${p}' is listed twice`);
      seen.add(p);
    }
    packages.set(name, paths as string[]);
  }

  const libs = raw.libraries ?? [];
  if (!Array.isArray(libs)) return fail('libraries: must be a list of package names');
  const libraries: string[] = [];
  for (const [i, l] of (libs as unknown[]).entries()) {
    if (typeof l !== 'string' || !PACKAGE_NAME.test(l))
      return fail(`libraries[${i}]: not a Debian package name`);
    if (libraries.includes(l)) fail(`libraries[${i}]: '${l}' is listed twice`);
    if (packages.has(l)) fail(`libraries[${i}]: '${l}' is already under packages`);
    libraries.push(l);
  }
  return { packages, libraries };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
