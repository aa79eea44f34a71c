// Builds one image of the components manifest as an OCI archive and caches it beside the components, under
// <cache>/components/<name>/<tag>-<key>, the key a hash of the manifest entry and the code that writes the
// archive. The archive is byte-reproducible, so the cache only saves the work, never changes the bytes.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cacheDir } from './build.js';
import { BUSYBOX, busyboxLayer } from './busybox-layer.js';
import { extractDeb, fetchPinnedDeb } from './deb.js';
import { ComponentsError } from './errors.js';
import type { Image } from './image-manifest.js';
import { lock } from './lock.js';
import { ociArchive } from './oci-archive.js';

const exec = promisify(execFile);

/** image.json in a cached directory */
export interface ImageInfo {
  readonly name: string;
  readonly ref: string;
  /** the Debian packages it is made from, package=version */
  readonly debs: readonly string[];
  /** the archive's file name in the directory, and in the layer's images directory */
  readonly file: string;
  /** the image's digest (its manifest's) */
  readonly digest: string;
}

export interface BuiltImage {
  readonly dir: string;
  readonly info: ImageInfo;
  readonly hit: boolean;
}

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const KEYED_SOURCES = [
  here('./image.ts'),
  here('./image-manifest.ts'),
  here('./busybox-layer.ts'),
  here('./oci-archive.ts'),
  here('../../src/sys/fs/tar.ts'),
];
/** the images are amd64, as the components: GOARCH of build.ts */
const ARCH = 'amd64';

/** buildImage returns the cached directory of an image, writing its archive first on a cache miss. */
export async function buildImage(
  img: Image,
  o: { cache?: string; log?: (line: string) => void } = {},
): Promise<BuiltImage> {
  const cache = o.cache ?? cacheDir();
  const h = createHash('sha256').update(JSON.stringify({ image: img, arch: ARCH }));
  for (const s of await Promise.all(KEYED_SOURCES.map((f) => readFile(f)))) h.update(s);
  const base = join(cache, 'components', img.name);
  const out = join(base, `${img.ref.slice(img.ref.lastIndexOf(':') + 1)}-${h.digest('hex').slice(0, 16)}`);
  const cached = async (): Promise<BuiltImage | undefined> => {
    const info = await readFile(join(out, 'image.json'), 'utf8').catch(() => undefined);
    return info === undefined ? undefined : { dir: out, info: JSON.parse(info) as ImageInfo, hit: true };
  };
  const hit = await cached();
  if (hit) return hit;

  await mkdir(base, { recursive: true });
  const unlock = await lock(join(base, '.lock'));
  const work = await mkdtemp(join(base, '.build-'));
  try {
    const late = await cached();
    if (late) return late;
    const deb = await fetchPinnedDeb(img.busybox, join(cache, 'debs'), ARCH);
    const tree = join(work, 'deb');
    await extractDeb(deb, tree);
    const busybox = join(tree, BUSYBOX);
    // the applets busybox was built with, from itself: it is static and amd64, as the build host must be
    if (process.arch !== 'x64')
      throw new ComponentsError('build', `${img.name}: the images are built on amd64 hosts`);
    const applets = (await exec(busybox, ['--list-full'], { encoding: 'utf8' })).stdout
      .split('\n')
      .filter(Boolean);
    const archive = ociArchive({
      name: img.ref,
      arch: ARCH,
      layer: busyboxLayer(
        await readFile(busybox),
        applets,
        await readFile(join(tree, 'usr/share/doc', img.busybox.package, 'copyright')),
      ),
      config: img.config,
    });
    const partial = join(work, 'out');
    await mkdir(partial);
    const info: ImageInfo = {
      name: img.name,
      ref: img.ref,
      debs: [`${img.busybox.package}=${img.busybox.version}`],
      file: `${img.name}.tar`,
      digest: archive.manifestDigest,
    };
    await writeFile(join(partial, info.file), archive.tar);
    await writeFile(join(partial, 'image.json'), `${JSON.stringify(info, null, 2)}\n`);
    await rm(out, { recursive: true, force: true });
    await rename(partial, out);
    o.log?.(
      `${img.name}: ${img.ref} ${archive.manifestDigest} (${(archive.tar.length / 1e6).toFixed(2)} MB)`,
    );
    return { dir: out, info, hit: false };
  } finally {
    await rm(work, { recursive: true, force: true });
    await unlock();
  }
}
