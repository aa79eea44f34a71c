// A Debian package pinned by version and sha256, fetched once into the Debian-packages cache the root
// filesystem's build shares (<cache>/debs) and checked against its pin. A cache hit needs no apt lists, so
// a build stays possible once the mirror has moved on to a newer point release.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './build.js';
import { ComponentsError } from './errors.js';
import type { PinnedDeb } from './image-manifest.js';

/** fetchPinnedDeb returns the cached .deb of `deb`, downloading it with apt-get download on a miss. */
export async function fetchPinnedDeb(deb: PinnedDeb, cache: string, arch = 'amd64'): Promise<string> {
  // apt-get download's own naming, as scripts/rootfs/debs.ts, so either build reuses the other's
  const file = join(cache, `${deb.package}_${deb.version.replace(/:/g, '%3a')}_${arch}.deb`);
  const cached = await readFile(file).catch(() => undefined);
  if (cached && sha256(cached) === deb.sha256) return file;

  await mkdir(cache, { recursive: true });
  // a private directory, then a rename: a killed build never leaves a partial .deb behind
  const tmp = await mkdtemp(join(cache, '.download-'));
  try {
    await run(
      'apt-get',
      ['download', '-q', '-o', 'APT::Sandbox::User=root', `${deb.package}:${arch}=${deb.version}`],
      {
        cwd: tmp,
      },
    ).catch((err: unknown) => {
      throw new ComponentsError(
        'tool',
        `${deb.package} ${deb.version}: download failed (apt-get update; or the mirror dropped this version, and the pin needs a new one): ${(err as Error).message}`,
        { cause: err },
      );
    });
    const got = (await readdir(tmp)).filter((f) => f.endsWith('.deb'));
    if (got.length !== 1)
      throw new ComponentsError('tool', `${deb.package}: apt-get download produced ${got.join(', ')}`);
    const sum = sha256(await readFile(join(tmp, got[0]!)));
    if (sum !== deb.sha256)
      throw new ComponentsError(
        'build',
        `${deb.package} ${deb.version}: sha256 ${sum}, the manifest pins ${deb.sha256}`,
      );
    await rename(join(tmp, got[0]!), file);
    return file;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** extractDeb unpacks a .deb's files into dir. */
export async function extractDeb(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await run('dpkg-deb', ['-x', file, dir]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
