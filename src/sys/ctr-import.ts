// Importing OCI image archives into containerd with its own ctr, run to its end with its words kept for the
// error: the archives a directory holds, their digests, and one import into one namespace.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** CtrImportError is a ctr that would not start, did not exit 0, or named no image it imported. */
export class CtrImportError extends Error {
  constructor(
    readonly archive: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'CtrImportError';
  }
}

export interface CtrImportRequest {
  /** the ctr binary */
  readonly ctr: string;
  /** containerd's socket */
  readonly address: string;
  /** containerd's namespace; made on first use */
  readonly namespace: string;
  readonly archive: string;
  /** labels set on every image imported, KEY=VALUE */
  readonly labels?: readonly string[];
  readonly signal?: AbortSignal;
}

export interface ImportedImage {
  readonly name: string;
  readonly digest: string;
}

/** ctrImportArgs: the names the archive's index gives, each image unpacked (for the default snapshotter). */
export const ctrImportArgs = (r: CtrImportRequest): string[] => [
  '--address',
  r.address,
  '--namespace',
  r.namespace,
  'images',
  'import',
  // the client's import, which names each image it unpacks (the transfer service's reports progress)
  '--local',
  ...(r.labels ?? []).flatMap((l) => ['--label', l]),
  r.archive,
];

/** parseImported reads `unpacking NAME (DIGEST)...done`, the line ctr prints per image it imported. */
export function parseImported(stdout: string): ImportedImage[] {
  return [...stdout.matchAll(/^unpacking (\S+) \((sha256:[0-9a-f]{64})\)\.\.\.done$/gm)].map((m) => ({
    name: m[1]!,
    digest: m[2]!,
  }));
}

/** ctrImport imports one archive into one namespace and returns the images it named. */
export function ctrImport(r: CtrImportRequest): Promise<ImportedImage[]> {
  return new Promise((resolve, reject) => {
    execFile(
      r.ctr,
      ctrImportArgs(r),
      { signal: r.signal, maxBuffer: 4 << 20, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const words = (stderr.trim() || stdout.trim()).split('\n').slice(-3).join('; ');
        if (err)
          return reject(
            new CtrImportError(r.archive, `ctr images import: ${words || err.message}`, { cause: err }),
          );
        const images = parseImported(stdout);
        if (!images.length)
          return reject(new CtrImportError(r.archive, `ctr images import named no image: ${words}`));
        resolve(images);
      },
    );
  });
}

/** imageArchives lists the *.tar of `dir` by name; a directory that is not there holds none. */
export async function imageArchives(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return names
    .filter((n) => n.endsWith('.tar'))
    .sort()
    .map((n) => join(dir, n));
}

/** fileSha256 is the hex sha256 of a file, streamed. */
export function fileSha256(path: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path, { signal })
      .on('data', (d) => h.update(d))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}
