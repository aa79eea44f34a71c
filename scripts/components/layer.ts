// An extension layer (components, kubernetes): a squashfs rooted at / holding its components' binaries where
// the manifest puts them, its images' OCI archives under /usr/share/keel/images, and
// /usr/share/keel/packages.txt.
// Byte-reproducible from the same cached builds: fixed owners, modes and times, and mksquashfs orders each
// directory itself.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Built } from './build.js';
import { ComponentsError } from './errors.js';
import type { BuiltImage } from './image.js';
import { IMAGES_DIR } from './image-manifest.js';

const exec = promisify(execFile);

export const PACKAGES_TXT = '/usr/share/keel/packages.txt';

/**
 * The layer is read when a service starts, not on the boot's path to the API, so it is compressed for
 * size. Measured on its 227 MB of binaries (2 cores, CPU seconds of mksquashfs / layer size):
 *   zstd-3  1M:    2 s, 87.5 MB     zstd-15 1M:  22 s, 81.7 MB     zstd-19 128K: 56 s, 78.3 MB
 *   zstd-12 1M:    6 s, 82.0 MB     zstd-19 1M:  72 s, 74.5 MB     zstd-22 1M:   67 s, 74.5 MB
 * zstd-19 with 1 MiB blocks: 9 % smaller than the fast levels for half a minute on 2 cores, paid only
 * when a component or this build changes.
 */
export const MKSQUASHFS_ARGS = ['-comp', 'zstd', '-Xcompression-level', '19', '-b', String(1 << 20)];

const HEADER = `# One line per component: name version go=<Go version> modules=<module,...> [links=<Debian package=version,...>]
# then <path in the layer>=<sha256> for each of its binaries.
# Then one line per image: name reference [also=<reference,...>] what it is made from (debs=<Debian
# package=version,...>, or from=<component or module>@<version>:<binary or source> [links=...], then
# debs=... of its base, if it has one) digest=<image digest> <path of its OCI archive>=<sha256>.
`;

export interface LayerBinary {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
}

/** buildLayer writes the layer of the given builds to `out` (atomically) and returns what it holds. */
export async function buildLayer(
  out: string,
  builds: readonly Built[],
  images: readonly BuiltImage[] = [],
): Promise<{ size: number; binaries: LayerBinary[] }> {
  const stage = await mkdtemp(join(tmpdir(), 'keel-components-'));
  const partial = `${out}.tmp-${process.pid}`;
  try {
    const root = join(stage, 'root');
    const lines: string[] = [];
    const binaries: LayerBinary[] = [];
    for (const { dir, info } of builds) {
      const fields = [
        info.name,
        info.version,
        `go=${info.go}`,
        `modules=${info.modules.map((m) => m.path).join(',')}`,
      ];
      if (info.links.length) fields.push(`links=${info.links.join(',')}`);
      for (const name of info.binaries) {
        const path = `${info.dest}/${name}`;
        const file = join(root, path);
        if (binaries.some((b) => b.path === path))
          throw new ComponentsError('build', `${path} is built twice`);
        await mkdir(dirname(file), { recursive: true });
        await copyFile(join(dir, name), file);
        await chmod(file, 0o755);
        const bytes = await readFile(file);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        binaries.push({ path, size: bytes.length, sha256 });
        fields.push(`${path}=${sha256}`);
      }
      lines.push(fields.join(' '));
    }
    for (const { dir, info } of images) {
      const path = `${IMAGES_DIR}/${info.file}`;
      const file = join(root, path);
      await mkdir(dirname(file), { recursive: true });
      await copyFile(join(dir, info.file), file);
      await chmod(file, 0o644);
      const bytes = await readFile(file);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      binaries.push({ path, size: bytes.length, sha256 });
      lines.push(
        [
          info.name,
          info.ref,
          ...(info.aliases.length ? [`also=${info.aliases.join(',')}`] : []),
          ...info.from,
          `digest=${info.digest}`,
          `${path}=${sha256}`,
        ].join(' '),
      );
    }
    const txt = join(root, PACKAGES_TXT);
    await mkdir(dirname(txt), { recursive: true });
    await writeFile(txt, `${HEADER}${lines.join('\n')}\n`);
    await chmod(txt, 0o644);
    // modes of the staged directories follow the host's umask; the squashfs must not
    await exec('find', [root, '-type', 'd', '-exec', 'chmod', '0755', '{}', '+']);

    await mkdir(dirname(out), { recursive: true });
    // niced: the compression takes the host's cores for half a minute or more
    await exec('nice', [
      '-n',
      '19',
      'mksquashfs',
      root,
      partial,
      ...MKSQUASHFS_ARGS,
      '-noappend',
      '-all-root',
      '-no-xattrs',
      '-mkfs-time',
      '0',
      '-all-time',
      '0',
      '-reproducible',
      '-quiet',
    ]).catch((err: NodeJS.ErrnoException & { stderr?: string }) => {
      throw new ComponentsError(
        'tool',
        Number(err.code) === 127
          ? 'mksquashfs not found (apt-get install squashfs-tools)'
          : `mksquashfs: ${err.stderr ?? err.message}`,
        { cause: err },
      );
    });
    await rename(partial, out);
    return { size: (await stat(out)).size, binaries };
  } finally {
    await rm(stage, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}
