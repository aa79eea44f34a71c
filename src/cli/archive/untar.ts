// Extracting the tar stream the Copy RPC sends (gzip-compressed, as talosctl expects): regular files,
// directories and symlinks, with PAX and GNU long names, never writing outside the destination.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

const BLOCK = 512;

const text = (b: Buffer, at: number, len: number) => {
  const s = b.subarray(at, at + len);
  const nul = s.indexOf(0);
  return s.subarray(0, nul < 0 ? len : nul).toString('utf8');
};
const octal = (b: Buffer, at: number, len: number) => Number.parseInt(text(b, at, len).trim() || '0', 8);

/** paxPath reads the `path` record of a PAX extended header ("<len> path=<value>\n" records). */
function paxPath(body: Buffer): string | undefined {
  let rest = body.toString('utf8');
  while (rest.length) {
    const sp = rest.indexOf(' ');
    const len = Number(rest.slice(0, sp));
    if (!(len > 0)) break;
    const record = rest.slice(sp + 1, len - 1);
    if (record.startsWith('path=')) return record.slice(5);
    rest = rest.slice(len);
  }
  return undefined;
}

export interface Entry {
  readonly path: string;
  readonly type: 'file' | 'dir' | 'symlink';
  readonly mode: number;
  readonly body: Buffer;
  readonly link: string;
}

/** readTar lists the entries of an uncompressed tar archive. */
export function readTar(tar: Buffer): Entry[] {
  const entries: Entry[] = [];
  let longName: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((x) => x === 0)) break; // end-of-archive marker
    const size = octal(h, 124, 12);
    const flag = String.fromCharCode(h[156] || 48);
    const body = tar.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === 'x' || flag === 'L') {
      longName = flag === 'x' ? paxPath(body) : text(body, 0, body.length);
      continue;
    }
    if (flag === 'g') continue;
    const prefix = text(h, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
    longName = undefined;
    const type =
      flag === '5' ? 'dir' : flag === '2' ? 'symlink' : flag === '0' || flag === '7' ? 'file' : undefined;
    if (!type) continue; // devices, fifos and hard links are not copied
    entries.push({
      path: name,
      type,
      mode: octal(h, 100, 8) & 0o7777,
      body: Buffer.from(body),
      link: text(h, 157, 100),
    });
  }
  return entries;
}

/** extractTar writes the entries under `dest`; a path leaving it is refused. */
export function extractTar(tar: Buffer, dest: string): void {
  const root = resolve(dest);
  mkdirSync(root, { recursive: true });
  for (const e of readTar(tar)) {
    const target = resolve(join(root, e.path));
    const rel = relative(root, target);
    if (rel.startsWith('..') || resolve(root, rel) !== target)
      throw new ArchiveError(`archive entry ${JSON.stringify(e.path)} points outside ${dest}`);
    if (e.type === 'dir') mkdirSync(target, { recursive: true, mode: e.mode || 0o755 });
    else {
      mkdirSync(dirname(target), { recursive: true });
      if (e.type === 'symlink') symlinkSync(e.link, target);
      else writeFileSync(target, e.body, { mode: e.mode || 0o644 });
    }
  }
}
