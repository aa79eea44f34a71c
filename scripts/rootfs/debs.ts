// Fetches Debian packages into a cache outside the work tree (once per exact version) and extracts them.
// The candidate version comes from the host's apt lists, so a build is offline once the cache is warm.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { RootfsError } from './errors.js';
import { run } from './run.js';

export interface Deb {
  name: string;
  version: string;
  arch: string;
  file: string;
}

/** debCacheDir is ${KEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/keel}/debs. */
export function debCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.KEEL_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'keel');
  return join(base, 'debs');
}

/** fetchDeb returns the cached .deb of the candidate version of name, downloading it if needed. */
export async function fetchDeb(name: string, cache: string): Promise<Deb> {
  const fields = await candidate(name);
  const { Version: version, Architecture: arch, SHA256: sha256 } = fields;
  if (!version || !arch || !sha256)
    throw new RootfsError('package', `${name}: apt record lacks Version/SHA256`);
  await mkdir(cache, { recursive: true });
  // apt-get download's own naming, so a cache filled by hand is reused
  const file = join(cache, `${name}_${version.replace(/:/g, '%3a')}_${arch}.deb`);
  if (existsSync(file) && (await sha256sum(file)) === sha256) return { name, version, arch, file };

  // download into a private directory, then rename: a killed build never leaves a partial .deb behind
  const tmp = await mkdtemp(join(cache, '.download-'));
  try {
    await run('apt-get', ['download', '-q', '-o', 'APT::Sandbox::User=root', `${name}=${version}`], {
      cwd: tmp,
      pkg: 'apt',
    }).catch((err: unknown) => {
      // stale lists name versions the mirror has since dropped
      throw new RootfsError(
        'package',
        `${name} ${version}: download failed (run apt-get update?): ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    });
    const got = (await readdir(tmp)).filter((f) => f.endsWith('.deb'));
    if (got.length !== 1)
      throw new RootfsError('package', `${name}: apt-get download produced ${got.join(', ')}`);
    const dl = join(tmp, got[0]!);
    if ((await sha256sum(dl)) !== sha256)
      throw new RootfsError('package', `${name}: SHA256 mismatch after download`);
    await rename(dl, file);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return { name, version, arch, file };
}

/** extractDeb unpacks a .deb into dir and checks that its control fields match what apt promised. */
export async function extractDeb(deb: Deb, dir: string): Promise<void> {
  const [pkg, version] = (await run('dpkg-deb', ['-f', deb.file, 'Package', 'Version'], { pkg: 'dpkg' }))
    .trim()
    .split('\n')
    .map((l) => l.replace(/^[^:]+:\s*/, ''));
  if (pkg !== deb.name || version !== deb.version) {
    throw new RootfsError(
      'package',
      `${deb.file}: is ${pkg} ${version}, expected ${deb.name} ${deb.version}`,
    );
  }
  await mkdir(dir, { recursive: true });
  await run('dpkg-deb', ['-x', deb.file, dir], { pkg: 'dpkg' });
}

async function candidate(name: string): Promise<Record<string, string>> {
  let out: string;
  try {
    out = await run('apt-cache', ['show', '--no-all-versions', name], { pkg: 'apt' });
  } catch (err) {
    throw new RootfsError('package', `${name}: apt has no candidate for this package (run apt-get update?)`, {
      cause: err,
    });
  }
  const fields: Record<string, string> = {};
  for (const line of out.split('\n')) {
    if (!line.trim()) break; // first stanza only
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (m) fields[m[1]!] = m[2]!;
  }
  if (fields.Package !== name) throw new RootfsError('package', `${name}: apt-cache show returned no record`);
  return fields;
}

function sha256sum(file: string): Promise<string> {
  return new Promise((ok, fail) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => h.update(d))
      .on('error', fail)
      .on('end', () => ok(h.digest('hex')));
  });
}
