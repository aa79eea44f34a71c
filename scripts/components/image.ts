// Builds one image of the components manifest as an OCI archive and caches it beside the components, under
// <cache>/components/<name>/<tag>-<key>, the key a hash of the manifest entry, of what it is made from (the
// cached component a binary comes from; the module, gcc and C library pause is compiled with) and of the
// code that writes the archive. The archive is byte-reproducible, so the cache only saves the work, never
// changes the bytes.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readElfDeps } from '../rootfs/elf.js';
import { type Built, CGO_DEBS, cacheDir, debVersions, downloadModule, findGo, goEnv, run } from './build.js';
import { BUSYBOX, busyboxLayer } from './busybox-layer.js';
import { extractDeb, fetchPinnedDeb } from './deb.js';
import { debBaseFiles } from './deb-base.js';
import { sectionNames } from './elf.js';
import { ComponentsError } from './errors.js';
import type { DebBase, Image } from './image-manifest.js';
import { lock } from './lock.js';
import { type OciFile, ociArchive } from './oci-archive.js';
import { buildPause, PAUSE_SOURCE } from './pause.js';

const exec = promisify(execFile);

/** image.json in a cached directory */
export interface ImageInfo {
  readonly name: string;
  readonly ref: string;
  readonly aliases: readonly string[];
  /** what it is made from, as packages.txt says it: `debs=…`, `from=…`, `links=…` */
  readonly from: readonly string[];
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
  here('./deb-base.ts'),
  here('./shared-libraries.ts'),
  here('./pause.ts'),
  here('./oci-archive.ts'),
  here('../../src/sys/fs/tar.ts'),
];
/** the images are amd64, as the components: GOARCH of build.ts */
const ARCH = 'amd64';

export interface ImageOptions {
  readonly cache?: string;
  readonly log?: (line: string) => void;
  /** the built components, by name: an image of a binary or of pause is made from one */
  readonly components?: ReadonlyMap<string, Built>;
}

/** What an image's layer is made from: the inputs that key it, and the work that lays it out. */
interface Recipe {
  readonly inputs: unknown;
  readonly from: readonly string[];
  readonly files: (work: string) => Promise<OciFile[]>;
}

/** buildImage returns the cached directory of an image, writing its archive first on a cache miss. */
export async function buildImage(img: Image, o: ImageOptions = {}): Promise<BuiltImage> {
  const cache = o.cache ?? cacheDir();
  const r = withBase(await recipe(img, cache, o.components ?? new Map()), img.base, cache);
  const h = createHash('sha256').update(JSON.stringify({ image: img, arch: ARCH, inputs: r.inputs }));
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
    // the images are amd64, as the components, and some are run here to lay them out (busybox --list-full)
    if (process.arch !== 'x64')
      throw new ComponentsError('build', `${img.name}: the images are built on amd64 hosts`);
    const archive = ociArchive({
      name: img.ref,
      aliases: img.aliases,
      arch: ARCH,
      layer: await r.files(work),
      config: img.config,
    });
    const partial = join(work, 'out');
    await mkdir(partial);
    const info: ImageInfo = {
      name: img.name,
      ref: img.ref,
      aliases: img.aliases,
      from: r.from,
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

/** withBase adds the files of an image's base to its recipe, and the base's packages to what it is from. */
function withBase(r: Recipe, base: DebBase | undefined, cache: string): Recipe {
  if (!base) return r;
  return {
    // the base's packages and their sha256 are in the image's manifest entry, which keys it
    inputs: r.inputs,
    from: [...r.from, `debs=${base.debs.map((d) => `${d.package}=${d.version}`).join(',')}`],
    files: async (work) => [
      ...(await r.files(work)),
      ...(await debBaseFiles(base, join(cache, 'debs'), work, ARCH)),
    ],
  };
}

async function recipe(img: Image, cache: string, components: ReadonlyMap<string, Built>): Promise<Recipe> {
  const src = img.source;
  if (src.kind === 'busybox') {
    const deb = src.deb;
    return {
      inputs: {},
      from: [`debs=${deb.package}=${deb.version}`],
      files: async (work) => {
        const tree = join(work, 'deb');
        await extractDeb(await fetchPinnedDeb(deb, join(cache, 'debs'), ARCH), tree);
        const busybox = join(tree, BUSYBOX);
        // the applets busybox was built with, from itself: it is static and amd64, as the build host must be
        const applets = (await exec(busybox, ['--list-full'], { encoding: 'utf8' })).stdout
          .split('\n')
          .filter(Boolean);
        return busyboxLayer(
          await readFile(busybox),
          applets,
          await readFile(join(tree, 'usr/share/doc', deb.package, 'copyright')),
        );
      },
    };
  }
  const c = components.get(src.component);
  if (!c) throw new ComponentsError('build', `${img.name}: component ${src.component} is not built`);
  if (src.kind === 'binary')
    return {
      // the cached directory's name is the component's version and key: the same one, the same bytes
      inputs: { component: basename(c.dir) },
      from: [`from=${c.info.name}@${c.info.version}:${src.files.map((f) => f.binary).join(',')}`],
      files: () =>
        Promise.all(
          src.files.map(
            async (f): Promise<OciFile> => ({
              path: f.path,
              type: 'file',
              mode: 0o755,
              content: await readFile(join(c.dir, f.binary)),
            }),
          ),
        ),
    };
  const module = c.info.modules[0]!;
  // gcc and glibc's static library, installed when missing; their versions then key the image
  await run(here('../host-packages.sh'), ['components']);
  const links = await debVersions(CGO_DEBS);
  return {
    inputs: { module, links },
    from: [`from=${module.path}@${c.info.version}:${PAUSE_SOURCE}`, `links=${links.join(',')}`],
    files: async (work) => {
      const dl = await downloadModule(await findGo(), goEnv(), module.path, c.info.version);
      if (dl.Sum !== module.sum)
        throw new ComponentsError(
          'build',
          `${module.path}@${c.info.version}: ${dl.Sum}, built from ${module.sum}`,
        );
      const pause = join(work, 'pause');
      await buildPause(dl.Dir, src.tag, c.info.version, pause);
      const deps = await readElfDeps(pause);
      if ((await sectionNames(pause)).includes('.symtab') || deps?.interpreter || deps?.needed.length)
        throw new ComponentsError('build', `${pause}: not stripped and static`);
      return [{ path: 'pause', type: 'file', mode: 0o755, content: await readFile(pause) }];
    },
  };
}
